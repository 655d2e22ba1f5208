import Foundation
import SpotterCore
import SpotterModels

/// A post's comments as the page shows them: replies grouped under the comment they answer (one level, as
/// `PostService.comment` stores them), each with the actions the viewer may take.
///
/// The same view renders inside the post page and alone (`comment_list` fragment), which is what `live.js`
/// fetches when the post's comments change: the server renders for the viewer, so a live update shows exactly
/// what a reload would, blocks and all, and no comment travels over the socket.
struct CommentsView {
    struct Item {
        let id: String
        let postID: String
        let authorUsername: String
        let authorName: String
        let authorInitials: String
        let authorAvatarURL: String?
        let textPieces: [TextPiece]
        let createdAt: String
        let createdLabel: String
        let canDelete: Bool
        /// Only the author edits a comment (`PostService.ownComment`), whoever else may delete it.
        let canEdit: Bool
        let edited: Bool
        let editedAt: String?
        let canReply: Bool
        let replies: [Item]
        let hasReplies: Bool
        /// A comment of an encrypted group: its sealed content as JSON, which the page's script opens in place.
        let sealed: String?
    }

    let postID: String
    let comments: [Item]
    let hasComments: Bool
    let countLabel: String
    let moreCommentsHref: String?
    let csrf: String

    init(
        page: Page<Comment>, post: Post, total: Int, viewer: AccountRecord?, now: Date, csrf: String
    ) {
        postID = post.id.description
        let timeZone = WebDisplay(viewer: viewer).timeZone
        let topLevelIDs = Set(page.items.filter { $0.parentID == nil }.map(\.id))
        var replies: [CommentID: [Comment]] = [:]
        for comment in page.items {
            if let parent = comment.parentID, topLevelIDs.contains(parent) {
                replies[parent, default: []].append(comment)
            }
        }
        func item(_ comment: Comment, replies: [Comment]) -> Item {
            let mayDelete =
                viewer.map {
                    PostRules.mayDeleteComment(
                        by: $0.id, role: $0.role, commentAuthor: comment.author.id, postAuthor: post.author.id)
                } ?? false
            let children = replies.map { item($0, replies: []) }
            return Item(
                id: comment.id.description, postID: post.id.description, authorUsername: comment.author.username,
                authorName: comment.author.displayName,
                authorInitials: ViewerView.initials(of: comment.author.displayName),
                authorAvatarURL: comment.author.avatarURL, textPieces: TextPiece.pieces(of: comment.text),
                createdAt: WebFormat.iso(comment.createdAt),
                createdLabel: WebFormat.relative(comment.createdAt, now: now, timeZone: timeZone), canDelete: mayDelete,
                canEdit: viewer?.id == comment.author.id && comment.sealed == nil, edited: comment.editedAt != nil,
                editedAt: comment.editedAt.map(WebFormat.iso),
                canReply: viewer != nil && comment.parentID == nil && post.sealed == nil,
                replies: children, hasReplies: !children.isEmpty, sealed: comment.sealed.map(SealedView.json))
        }
        // A reply whose comment is on an earlier page shows on its own, rather than not at all.
        comments = page.items
            .filter { $0.parentID == nil || !topLevelIDs.contains($0.parentID!) }
            .map { item($0, replies: replies[$0.id] ?? []) }
        hasComments = !comments.isEmpty
        countLabel = WebFormat.count(total, "comment")
        moreCommentsHref = page.nextCursor.map { "/posts/\(post.id)?cursor=\($0)#comments" }
        self.csrf = csrf
    }
}
