import Foundation
import Hummingbird
import NIOCore
import SpotterCore
import SpotterModels

/// `/posts/<id>` and what is done to a post once it exists: comments, replies, kudos. (Writing one is
/// `WebComposeController`; editing and deleting, `WebPostEditController`.)
struct WebPostsController {
    let posts: PostService
    let pages: WebPages
    let clock: any WallClock

    struct DetailView {
        let post: PostView
        let comments: CommentsView
        let liveTopic: String
        let error: String?
        /// What was typed into a comment that was refused, shown again rather than lost.
        let typed: String
        let replyTo: String?
    }

    struct KudosView {
        let postID: String
        let postTitle: String
        let countLabel: String
        let people: [ViewerView]
        let hasPeople: Bool
        let nextHref: String?
    }

    /// One post card alone, for `live.js` to swap in when the post is edited.
    struct CardView {
        let post: PostView
        let csrf: String
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("posts/:id") { request, context in
            let id: PostID = try context.webID("id")
            guard request.uri.queryParameters["fragment"] == nil else {
                let post = try await posts.get(id, viewer: context.viewer)
                let view = CardView(
                    post: PostView(post, now: clock.now, viewer: context.viewer), csrf: context.web.csrfToken)
                return pages.fragment("post_card_fragment", content: view)
            }
            return try await detail(
                id, cursor: request.uri.queryParameters["cursor"].map(String.init), context: context)
        }
        routes.get("posts/:id/comments") { request, context in
            let id: PostID = try context.webID("id")
            let post = try await posts.get(id, viewer: context.viewer)
            let view = try await comments(
                of: post, cursor: request.uri.queryParameters["cursor"].map(String.init), context: context)
            return pages.fragment("comment_list", content: view)
        }
        routes.post("posts/:id/comments") { _, context in
            let id: PostID = try context.webID("id")
            let viewer = try context.requireWebViewer()
            let form = context.web.form
            let parent = form["parent_id"].flatMap { $0.isEmpty ? nil : $0 }
            do {
                let request = CreateCommentRequest(
                    text: form["text"] ?? "", parentID: try parent.map { try Self.commentID($0) })
                let comment = try await posts.comment(on: id, request, viewer: viewer)
                return WebPages.redirect(to: "/posts/\(id)#comment-\(comment.id)")
            } catch {
                guard let (status, messages) = WebErrors.explain(error) else { throw error }
                var response = try await detail(
                    id, cursor: nil, context: context, error: messages.joined(separator: " "),
                    typed: form["text"] ?? "", replyTo: parent)
                response.status = status
                return response
            }
        }
        routes.get("posts/:id/kudos") { request, context in
            let id: PostID = try context.webID("id")
            let post = try await posts.get(id, viewer: context.viewer)
            let page = try await posts.kudosGivers(
                of: id, viewer: context.viewer,
                page: try PageRequest(
                    limit: nil, cursor: request.uri.queryParameters["cursor"].map(String.init), since: nil))
            let view = KudosView(
                postID: id.description, postTitle: post.workout?.title ?? "\(post.author.displayName)'s post",
                countLabel: WebFormat.count(post.kudosCount, "kudos", plural: "kudos"),
                people: page.items.map(ViewerView.init), hasPeople: !page.items.isEmpty,
                nextHref: page.nextCursor.map { "/posts/\(id)/kudos?cursor=\($0)" })
            return try await pages.page("kudos", title: "Kudos", content: view, context: context, nav: .feed)
        }
        // Kudos from a form (no JavaScript) redirects back; from `fetch` it answers JSON, so the page can
        // confirm or undo the count it already changed.
        routes.post("posts/:id/kudos") { request, context in
            let id: PostID = try context.webID("id")
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

    /// A comment id from a form: one that isn't an id is no comment on this post, said as the API says it.
    static func commentID(_ text: String) throws -> CommentID {
        guard let id = CommentID(text) else { throw SpotterError.invalid("parent_id", "is not a comment on this post") }
        return id
    }

    private func comments(of post: Post, cursor: String?, context: AppRequestContext) async throws -> CommentsView {
        let page = try await posts.comments(
            on: post.id, viewer: context.viewer, page: try PageRequest(limit: "50", cursor: cursor, since: nil))
        return CommentsView(
            page: page, post: post, total: post.commentsCount, viewer: context.viewer, now: clock.now,
            csrf: context.web.csrfToken)
    }

    private func detail(
        _ id: PostID, cursor: String?, context: AppRequestContext, error: String? = nil, typed: String = "",
        replyTo: String? = nil
    ) async throws -> Response {
        let post = try await posts.get(id, viewer: context.viewer)
        let view = DetailView(
            post: PostView(post, now: clock.now, viewer: context.viewer),
            comments: try await comments(of: post, cursor: cursor, context: context), liveTopic: "post:\(id)",
            error: error, typed: typed, replyTo: replyTo)
        let title = post.workout?.title ?? "\(post.author.displayName)'s post"
        return try await pages.page("post", title: title, content: view, context: context, nav: .feed)
    }
}
