import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/exercises` and `/api/v1/workout-templates`.
struct TemplatesController {
    let templates: TemplateService

    var exerciseReads: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { request, context in
            try await templates.exercises(
                viewer: context.viewer, author: request.uri.queryParameters["author"].map(String.init),
                page: try request.pageRequest)
        }
        routes.get(":id") { _, context in try await templates.exercise(try context.id("id"), viewer: context.viewer) }
        return routes
    }

    var exerciseWrites: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post { request, context in
            let body = try await request.decodeJSON(CreateExerciseTemplateRequest.self, context: context)
            let created = try await templates.createExercise(body, author: try context.requireViewer())
            return EditedResponse(status: .created, response: created)
        }
        routes.delete(":id") { _, context in
            try await templates.deleteExercise(try context.id("id"), viewer: try context.requireViewer())
            return Response(status: .noContent)
        }
        return routes
    }

    var workoutReads: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { request, context in
            try await templates.workoutTemplates(
                viewer: context.viewer, author: request.uri.queryParameters["author"].map(String.init),
                page: try request.pageRequest)
        }
        routes.get(":id") { _, context in
            try await templates.workoutTemplate(try context.id("id"), viewer: context.viewer)
        }
        return routes
    }

    var workoutWrites: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post { request, context in
            let body = try await request.decodeJSON(CreateWorkoutTemplateRequest.self, context: context)
            let created = try await templates.createWorkoutTemplate(body, author: try context.requireViewer())
            return EditedResponse(status: .created, response: created)
        }
        routes.delete(":id") { _, context in
            try await templates.deleteWorkoutTemplate(try context.id("id"), viewer: try context.requireViewer())
            return Response(status: .noContent)
        }
        return routes
    }
}

extension ExerciseTemplate: ResponseEncodable {}
extension WorkoutTemplate: ResponseEncodable {}
