import Foundation
import Observation
import SpotterModels

/// A post's comments and replies: load, load more, and write a comment or a reply (through the outbox when
/// given, so one written offline waits there). With an outbox, the comments are kept in its database: the
/// screen shows those last seen at once, offline too, while they are fetched again. A comment sent is shown at
/// once in `sending`, marked as on its way, until the server's copy replaces it in `comments`; a refusal takes it away and puts the draft back
/// with the server's words (POWR's "local update before confirmation").
///
/// ```swift
/// ForEach(model.comments, id: \.id) { CommentRow(comment: $0) }
/// ForEach(model.sending) { SendingRow(text: $0.text, offline: $0.waitingForNetwork) }
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
    /// Comments written here that the server has not confirmed yet, oldest first, shown after `comments`.
    public private(set) var sending: [SendingComment] = []
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue?
    private var database: AppDatabase? { outbox?.database }
    private var nextCursor: String?

    public init(postID: PostID, client: SpotterClient, outbox: ActionQueue? = nil) {
        self.postID = postID
        self.client = client
        self.outbox = outbox
    }

    /// Called after a comment was sent and the list reloaded (the post's count changed).
    var onChange: (@MainActor () async -> Void)?

    public func load() async {
        await showWaiting()
        if comments.isEmpty, let kept = try? await database?.comments(on: postID) {
            show(kept.comments, nextCursor: kept.nextCursor)
        }
        do {
            let page = try await client.comments(on: postID)
            show(page.items, nextCursor: page.nextCursor)
            errorMessage = nil
            try? await database?.save(page.items, nextCursor: page.nextCursor, on: postID, replacing: true)
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    public func loadMoreComments() async {
        guard let nextCursor else { return }
        do {
            let page = try await client.comments(on: postID, cursor: nextCursor)
            let shown = Set(comments.map(\.id))
            let more = page.items.filter { !shown.contains($0.id) }
            show(comments + more, nextCursor: page.nextCursor)
            try? await database?.save(more, nextCursor: page.nextCursor, on: postID, replacing: false)
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func show(_ comments: [Comment], nextCursor: String?) {
        self.comments = comments
        self.nextCursor = nextCursor
        hasMoreComments = nextCursor != nil
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
                sending.append(SendingComment(id: queued.id, text: text, parentID: request.parentID))
                for outcome in await outbox.drain() {
                    guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                    try? await outbox.discard(refused.id)
                    sending.removeAll { $0.id == queued.id }
                    restore(request, because: problem.detail ?? problem.title)
                    return
                }
                await showWaiting()
                if waitingToSend == 0 { await reloadComments() }
            } else {
                let local = SendingComment(id: -Int64(sending.count + 1), text: text, parentID: request.parentID)
                sending.append(local)
                defer { sending.removeAll { $0.id == local.id } }
                _ = try await client.addComment(request, on: postID)
                await reloadComments()
            }
        } catch {
            restore(request, because: FeedViewModel.message(error))
        }
    }

    /// What of this post's comments still waits in the outbox: shown as sending, marked as waiting for the
    /// network once a try has failed for want of one.
    private func showWaiting() async {
        guard let outbox, let pending = try? await outbox.pending else { return }
        let mine = pending.compactMap { queued -> SendingComment? in
            guard case .comment(postID, let request) = queued.action else { return nil }
            return SendingComment(
                id: queued.id, text: request.text, parentID: request.parentID,
                waitingForNetwork: queued.retry != nil)
        }
        waitingToSend = mine.count
        sending = mine
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
            show(all, nextCursor: page.nextCursor)
            errorMessage = nil
            try? await database?.save(all, nextCursor: page.nextCursor, on: postID, replacing: true)
            await onChange?()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }
}

/// A comment written on this device that the server has not confirmed yet.
public struct SendingComment: Sendable, Equatable, Identifiable {
    /// The outbox action carrying it.
    public var id: Int64
    public var text: String
    public var parentID: CommentID?
    /// A try has failed for want of a network or a working server: it goes when they are back.
    public var waitingForNetwork = false
}
