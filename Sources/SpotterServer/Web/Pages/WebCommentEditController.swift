import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// Editing one's own comment from the web. `PostService.ownComment` and `editComment` decide who may, so a
/// stranger's request is refused here exactly as the API refuses it; the page follows the post edit page
/// (`WebPostEditController`): the form kept with its error (422), then back to the comment on the post.
struct WebCommentEditController {
    let posts: PostService
    let pages: WebPages

    struct EditView {
        let postID: String
        let commentID: String
        let text: String
        let errors: [String]
        let hasErrors: Bool
        let textInvalid: Bool
        let maxLength = PostRules.commentMaxLength

        init(postID: PostID, commentID: CommentID, text: String, problems: [FieldError] = []) {
            self.postID = postID.description
            self.commentID = commentID.description
            self.text = text
            errors = problems.map { "\($0.field == "text" ? "Comment" : $0.field): \($0.detail)" }
            hasErrors = !problems.isEmpty
            textInvalid = problems.contains { $0.field == "text" }
        }
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("posts/:id/comments/:comment/edit") { _, context in
            let viewer = try context.requireWebViewer()
            let id: PostID = try context.webID("id")
            let comment = try await posts.ownComment(try context.webID("comment"), on: id, viewer: viewer)
            let view = EditView(postID: id, commentID: comment.id, text: comment.text)
            return try await pages.page("comment_edit", title: "Edit your comment", content: view, context: context)
        }
        routes.post("posts/:id/comments/:comment/edit") { _, context in
            let viewer = try context.requireWebViewer()
            let id: PostID = try context.webID("id")
            let commentID: CommentID = try context.webID("comment")
            // Emptied counts as typed: a cleared comment is refused for being empty, not left unchanged.
            let text = context.web.form.all("text").first ?? ""
            do {
                _ = try await posts.editComment(commentID, on: id, UpdateCommentRequest(text: text), viewer: viewer)
                return WebPages.redirect(to: "/posts/\(id)#comment-\(commentID)")
            } catch let error as SpotterError {
                guard case .validation(let problems) = error else { throw error }
                let view = EditView(postID: id, commentID: commentID, text: text, problems: problems)
                return try await pages.page(
                    "comment_edit", title: "Edit your comment", content: view, context: context,
                    status: .unprocessableContent)
            }
        }
        return routes
    }
}
