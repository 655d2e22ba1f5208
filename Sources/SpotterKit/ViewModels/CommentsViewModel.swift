import Foundation
import Observation
import SpotterModels

/// A post's comments and replies: load, load more, and write a comment or a reply (through the outbox when
/// given, so one written offline waits there).
///
/// ```swift
/// ForEach(model.comments, id: \.id) { CommentRow(comment: $0) }
/// TextField("Add a comment", text: $model.draft).onSubmit { Task { await model.send() } }
/// ```
@MainActor
@Observable
public final class CommentsViewModel {
    public let postID: PostID
    /// Comments and replies, in the order the server lists them.
    public private(set) var comments: [Comment] = []
    public private(set) var hasMoreComments = false
    public var draft = ""
    /// The comment being replied to, if any (one level of replies).
    public var replyingTo: CommentID?
    /// A comment that could not be sent yet: it waits in the outbox and goes out when back online.
    public private(set) var waitingToSend = 0
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue?
    private var nextCursor: String?

    public init(postID: PostID, client: SpotterClient, outbox: ActionQueue? = nil) {
        self.postID = postID
        self.client = client
        self.outbox = outbox
    }

    /// Called after a comment was sent and the list reloaded (the post's count changed).
    var onChange: (@MainActor () async -> Void)?

    public func load() async {
        do {
            let page = try await client.comments(on: postID)
            comments = page.items
            nextCursor = page.nextCursor
            hasMoreComments = page.nextCursor != nil
            errorMessage = nil
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    public func loadMoreComments() async {
        guard let nextCursor else { return }
        do {
            let page = try await client.comments(on: postID, cursor: nextCursor)
            let shown = Set(comments.map(\.id))
            comments += page.items.filter { !shown.contains($0.id) }
            self.nextCursor = page.nextCursor
            hasMoreComments = page.nextCursor != nil
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    /// Sends the draft as a comment (or a reply to `replyingTo`). With an outbox, a comment written offline
    /// waits there and the draft is cleared; a refusal puts the draft back with the server's words.
    public func send() async {
        let text = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        let request = CreateCommentRequest(text: text, parentID: replyingTo)
        draft = ""
        replyingTo = nil
        do {
            if let outbox {
                let queued = try await outbox.enqueue(.comment(postID, request))
                for outcome in await outbox.drain() {
                    guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                    try? await outbox.discard(refused.id)
                    restore(request, because: problem.detail ?? problem.title)
                    return
                }
                waitingToSend = try await outbox.pending.filter {
                    if case .comment(postID, _) = $0.action { true } else { false }
                }.count
                if waitingToSend == 0 { await reloadComments() }
            } else {
                _ = try await client.addComment(request, on: postID)
                await reloadComments()
            }
        } catch {
            restore(request, because: FeedViewModel.message(error))
        }
    }

    private func restore(_ request: CreateCommentRequest, because message: String) {
        draft = request.text
        replyingTo = request.parentID
        errorMessage = message
    }

    private func reloadComments() async {
        do {
            var page = try await client.comments(on: postID)
            var all = page.items
            while let cursor = page.nextCursor, all.count < comments.count + 1 {
                page = try await client.comments(on: postID, cursor: cursor)
                all += page.items
            }
            comments = all
            nextCursor = page.nextCursor
            hasMoreComments = page.nextCursor != nil
            errorMessage = nil
            await onChange?()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }
}
