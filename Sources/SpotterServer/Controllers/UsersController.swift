import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/users/{username}/…` and `/api/v1/me/follow-requests`: profiles and the social graph.
struct UsersController {
    let social: SocialService
    let feeds: FeedService
    let progress: ProgressService

    /// Readable without signing in (a signed-in viewer sees what their relationships allow).
    var readEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(":username") { _, context in
            try await social.profile(try context.text("username"), viewer: context.viewer)
        }
        routes.get(":username/posts") { request, context in
            try await feeds.author(try context.text("username"), viewer: context.viewer, page: try request.pageRequest)
        }
        routes.get(":username/progress") { request, context in
            try await progress.report(
                for: try context.text("username"), viewer: context.viewer,
                weeks: request.uri.queryParameters["weeks"].map(String.init))
        }
        routes.get(":username/followers") { request, context in
            try await social.list(
                .followers, of: try context.text("username"), viewer: context.viewer, page: try request.followPage)
        }
        routes.get(":username/following") { request, context in
            try await social.list(
                .following, of: try context.text("username"), viewer: context.viewer, page: try request.followPage)
        }
        return routes
    }

    var signedInEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post(":username/follow") { _, context in
            try await social.follow(try context.text("username"), viewer: try context.requireViewer())
        }
        routes.delete(":username/follow") { _, context in
            try await social.unfollow(try context.text("username"), viewer: try context.requireViewer())
        }
        routes.post(":username/block") { _, context in
            try await social.setBlocked(
                try context.text("username"), viewer: try context.requireViewer(), blocked: true)
        }
        routes.delete(":username/block") { _, context in
            try await social.setBlocked(
                try context.text("username"), viewer: try context.requireViewer(), blocked: false)
        }
        routes.post(":username/mute") { _, context in
            try await social.setMuted(try context.text("username"), viewer: try context.requireViewer(), muted: true)
        }
        routes.delete(":username/mute") { _, context in
            try await social.setMuted(try context.text("username"), viewer: try context.requireViewer(), muted: false)
        }
        return routes
    }

    /// `/api/v1/me/blocks` and `/api/v1/me/mutes`: whom the caller blocks and mutes, most recent first.
    var restrictionEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("blocks") { request, context in
            try await social.restricted(.blocks, viewer: try context.requireViewer(), page: try request.followPage)
        }
        routes.get("mutes") { request, context in
            try await social.restricted(.mutes, viewer: try context.requireViewer(), page: try request.followPage)
        }
        return routes
    }

    /// `/api/v1/me/follow-requests`.
    var requestEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get { request, context in
            try await social.followRequests(viewer: try context.requireViewer(), page: try request.followPage)
        }
        routes.post(":username/approve") { _, context in
            try await social.answerRequest(
                from: try context.text("username"), viewer: try context.requireViewer(), approve: true)
            return Response(status: .noContent)
        }
        routes.post(":username/deny") { _, context in
            try await social.answerRequest(
                from: try context.text("username"), viewer: try context.requireViewer(), approve: false)
            return Response(status: .noContent)
        }
        return routes
    }
}
