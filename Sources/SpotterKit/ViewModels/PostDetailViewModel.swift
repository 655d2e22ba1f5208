import Foundation
import Observation
import SpotterModels

/// A post with its comments (a `CommentsViewModel`), kept current by live counts from the socket.
///
/// ```swift
/// List {
///     PostHeader(post: model.post)
///     ForEach(model.comments.comments, id: \.id) { CommentRow(comment: $0) }
/// }
/// TextField("Add a comment", text: $model.comments.draft).onSubmit { Task { await model.comments.send() } }
/// ```
@MainActor
@Observable
public final class PostDetailViewModel {
    public let postID: PostID
    public private(set) var post: Post?
    public let comments: CommentsViewModel
    public private(set) var errorMessage: String?

    private let client: SpotterClient

    public init(postID: PostID, client: SpotterClient, outbox: ActionQueue? = nil) {
        self.postID = postID
        self.client = client
        comments = CommentsViewModel(postID: postID, client: client, outbox: outbox)
        comments.onChange = { [weak self] in await self?.reloadPost() }
    }

    public func load() async {
        await reloadPost()
        await comments.load()
    }

    /// Counts pushed over the socket (`post_likes_updated`, `post_comments_updated`) on this post's topic.
    public func apply(_ event: RealtimeEvent) {
        guard case .event(_, let name, let payload) = event, payload["id"] == .string(postID.description) else {
            return
        }
        switch name {
        case "post_likes_updated":
            if case .number(let count) = payload["likes_count"] { post?.kudosCount = Int(count) }
        case "post_comments_updated":
            if case .number(let count) = payload["comments_count"] { post?.commentsCount = Int(count) }
        default:
            break
        }
    }

    private func reloadPost() async {
        do {
            post = try await client.post(postID)
            errorMessage = nil
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }
}
