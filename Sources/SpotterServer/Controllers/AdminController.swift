import Hummingbird
import SpotterCore

/// `/api/v1/admin/users/{username}/suspend|feature`: admin-only moderation.
struct AdminController {
    let admin: AdminService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        for (action, on) in [("suspend", true), ("feature", true)] {
            let path = RouterPath(":username/\(action)")
            routes.post(path) { _, context in
                try await apply(action, on: on, context: context)
            }
            routes.delete(path) { _, context in
                try await apply(action, on: false, context: context)
            }
        }
        return routes
    }

    private func apply(_ action: String, on: Bool, context: AppRequestContext) async throws -> Response {
        let username = try context.text("username")
        let viewer = try context.requireViewer()
        if action == "suspend" {
            try await admin.setSuspended(username, suspended: on, by: viewer)
        } else {
            try await admin.setFeatured(username, featured: on, by: viewer)
        }
        return Response(status: .noContent)
    }
}
