import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/posts/…`: posts, kudos and comments.
struct PostsController {
    let posts: PostService

    var readEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(":id") { _, context in
            try await posts.get(try context.id("id"), viewer: context.viewer)
        }
        routes.get(":id/comments") { request, context in
            try await posts.comments(on: try context.id("id"), viewer: context.viewer, page: try request.pageRequest)
        }
        routes.get(":id/kudos") { request, context in
            try await posts.kudosGivers(of: try context.id("id"), viewer: context.viewer, page: try request.pageRequest)
        }
        return routes
    }

    var signedInEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post { request, context in
            let body = try await request.decodeJSON(CreatePostRequest.self, context: context)
            return EditedResponse(
                status: .created, response: try await posts.create(body, author: try context.requireViewer()))
        }
        routes.patch(":id") { request, context in
            let body = try await request.decodeJSON(UpdatePostRequest.self, context: context)
            return try await posts.update(try context.id("id"), with: body, viewer: try context.requireViewer())
        }
        routes.delete(":id") { _, context in
            try await posts.delete(try context.id("id"), viewer: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.post(":id/kudos") { _, context in
            try await posts.setKudos(try context.id("id"), on: true, viewer: try context.requireViewer())
        }
        routes.delete(":id/kudos") { _, context in
            try await posts.setKudos(try context.id("id"), on: false, viewer: try context.requireViewer())
        }
        routes.post(":id/comments") { request, context in
            let body = try await request.decodeJSON(CreateCommentRequest.self, context: context)
            let comment = try await posts.comment(on: try context.id("id"), body, viewer: try context.requireViewer())
            return EditedResponse(status: .created, response: comment)
        }
        routes.patch(":id/comments/:comment_id") { request, context in
            let body = try await request.decodeJSON(UpdateCommentRequest.self, context: context)
            return try await posts.editComment(
                try context.id("comment_id"), on: try context.id("id"), body, viewer: try context.requireViewer())
        }
        routes.delete(":id/comments/:comment_id") { _, context in
            try await posts.deleteComment(
                try context.id("comment_id"), on: try context.id("id"), viewer: try context.requireViewer())
            return Response(status: .noContent)
        }
        return routes
    }
}

/// `/api/v1/feeds/…`.
struct FeedsController {
    let feeds: FeedService

    var readEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("featured") { request, context in
            let query = request.uri.queryParameters
            return try await feeds.featured(
                viewer: context.viewer, limit: query["limit"].map(String.init), cursor: query["cursor"].map(String.init)
            )
        }
        routes.get("global") { request, context in
            try await feeds.global(viewer: context.viewer, page: try request.pageRequest)
        }
        routes.get("tags/:tag") { request, context in
            try await feeds.tag(try context.text("tag"), viewer: context.viewer, page: try request.pageRequest)
        }
        return routes
    }

    var signedInEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("following") { request, context in
            try await feeds.following(viewer: try context.requireViewer(), page: try request.pageRequest)
        }
        return routes
    }
}
