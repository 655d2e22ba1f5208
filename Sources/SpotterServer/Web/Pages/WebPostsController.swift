import Foundation
import Hummingbird
import NIOCore
import SpotterCore
import SpotterModels

/// `/posts/<id>` and what is done to a post once it exists: comments, kudos. (Writing one is
/// `WebComposeController`.)
struct WebPostsController {
    let posts: PostService
    let pages: WebPages
    let clock: any WallClock

    struct DetailView {
        let post: PostView
        let comments: [CommentView]
        let hasComments: Bool
        let moreCommentsHref: String?
        let liveTopic: String
        let error: String?
    }

    struct CommentView {
        let authorUsername: String
        let authorName: String
        let text: String
        let createdAt: String
        let createdLabel: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("posts/:id") { request, context in
            try await detail(
                try context.id("id"), cursor: request.uri.queryParameters["cursor"].map(String.init),
                error: nil, context: context)
        }
        routes.post("posts/:id/comments") { _, context in
            let id: PostID = try context.id("id")
            let viewer = try context.requireWebViewer()
            do {
                _ = try await posts.comment(
                    on: id, CreateCommentRequest(text: context.web.form["text"] ?? ""), viewer: viewer)
                return WebPages.redirect(to: "/posts/\(id)#comments")
            } catch {
                guard let (_, messages) = WebErrors.explain(error) else { throw error }
                return try await detail(id, cursor: nil, error: messages.joined(separator: " "), context: context)
            }
        }
        // Kudos from a form (no JavaScript) redirects back; from `fetch` it answers JSON, so the page can
        // confirm or undo the count it already changed.
        routes.post("posts/:id/kudos") { request, context in
            let id: PostID = try context.id("id")
            let on = context.web.form["on"] != "false"
            let state = try await posts.setKudos(id, on: on, viewer: try context.requireWebViewer())
            guard request.headers[.accept]?.contains("application/json") == true else {
                return WebPages.redirect(to: "/posts/\(id)")
            }
            let body = try JSONCoding.encoder.encode(state)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return routes
    }

    private func detail(
        _ id: PostID, cursor: String?, error: String?, context: AppRequestContext
    ) async throws -> Response {
        let viewer = context.identity?.account
        let post = try await posts.get(id, viewer: viewer)
        let page = try await posts.comments(
            on: id, viewer: viewer, page: try PageRequest(limit: "50", cursor: cursor, since: nil))
        let now = clock.now
        let display = WebDisplay(viewer: context.identity?.account)
        let comments = page.items.map {
            CommentView(
                authorUsername: $0.author.username, authorName: $0.author.displayName, text: $0.text,
                createdAt: WebFormat.iso($0.createdAt),
                createdLabel: WebFormat.relative($0.createdAt, now: now, timeZone: display.timeZone))
        }
        let view = DetailView(
            post: PostView(post, now: now, units: display.units, timeZone: display.timeZone), comments: comments,
            hasComments: !comments.isEmpty,
            moreCommentsHref: page.nextCursor.map { "/posts/\(id)?cursor=\($0)#comments" }, liveTopic: "post:\(id)",
            error: error)
        let title = post.workout?.title ?? "\(post.author.displayName)'s post"
        return try await pages.page("post", title: title, content: view, context: context, nav: .feed)
    }
}
