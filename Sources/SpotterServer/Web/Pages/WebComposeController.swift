import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/compose` and `POST /posts`: writing a note or logging a workout with the builder.
struct WebComposeController {
    let posts: PostService
    let templates: TemplateService
    let pages: WebPages
    let clock: any WallClock

    struct ComposeView {
        let errors: [String]
        let hasErrors: Bool
        let text: String
        let builder: WorkoutBuilderView
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("compose") { request, context in
            let viewer = try context.requireWebViewer()
            let chosen = request.uri.queryParameters["template"].flatMap { WorkoutTemplateID(String($0)) }
            let template = try await chosen.asyncMap { try await templates.workoutTemplate($0, viewer: viewer) }
            return try await compose(errors: [], text: "", template: template, context: context)
        }
        routes.post("posts") { _, context in
            let author = try context.requireWebViewer()
            let form = context.web.form
            do {
                let request = try WorkoutForm.request(from: form, now: clock.now)
                _ = try await posts.create(request, author: author)
                return WebPages.redirect(to: "/feed/following")
            } catch {
                guard let (status, messages) = WebErrors.explain(error) else { throw error }
                var response = try await compose(
                    errors: messages, text: form["text"] ?? "", template: nil, context: context)
                response.status = status
                return response
            }
        }
        return routes
    }

    private func compose(
        errors: [String], text: String, template: WorkoutTemplate?, context: AppRequestContext
    ) async throws -> Response {
        let available = try await templates.workoutTemplates(
            viewer: context.identity?.account, author: nil, page: PageRequest(limit: 20))
        let view = ComposeView(
            errors: errors, hasErrors: !errors.isEmpty, text: text,
            builder: WorkoutBuilderView(template: template, available: available.items))
        return try await pages.page("compose", title: "Log a workout", content: view, context: context, nav: .compose)
    }
}
