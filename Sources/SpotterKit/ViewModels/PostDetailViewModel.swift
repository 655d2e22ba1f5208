import Foundation
import GRDB
import Observation
import SpotterModels

/// A post with its comments (a `CommentsViewModel`), offline first: the post shows as the client database
/// keeps it (at once when a feed cached it, offline too), follows every change to it there (kudos given on
/// the feed show here at once), and is refreshed from the network and by live counts from the socket.
///
/// ```swift
/// List {
///     PostHeader(post: model.post) { Task { await model.toggleKudos() } }
///     ForEach(model.comments.comments, id: \.id) { CommentRow(comment: $0) }
/// }
/// TextField("Add a comment", text: $model.comments.draft).onSubmit { Task { await model.comments.send() } }
/// ```
@MainActor
@Observable
public final class PostDetailViewModel {
    public let postID: PostID
    /// The post as the client database holds it.
    public private(set) var post: Post?
    public let comments: CommentsViewModel
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue
    private var database: AppDatabase { outbox.database }
    private var shown = PostsShown<Post?>()
    @ObservationIgnored nonisolated(unsafe) private var observation: Task<Void, Never>?

    /// - Parameter outbox: where kudos and comments go; the post is read from its database.
    public init(postID: PostID, client: SpotterClient, outbox: ActionQueue) {
        self.postID = postID
        self.client = client
        self.outbox = outbox
        comments = CommentsViewModel(postID: postID, client: client, outbox: outbox)
        comments.onChange = { [weak self] in await self?.reloadPost() }
    }

    /// The session's post screen: its client, outbox and database.
    public convenience init(postID: PostID, session: SpotterSession) {
        self.init(postID: postID, client: session.client, outbox: session.outbox)
    }

    deinit { observation?.cancel() }

    /// Shows the kept post at once and keeps following it, then refreshes it and loads the comments.
    public func load() async {
        await observe()
        await reloadPost()
        await comments.load()
    }

    /// Gives or takes back kudos, on this screen and every other at once (see `FeedViewModel.toggleKudos`).
    public func toggleKudos() async {
        guard let post else { return }
        errorMessage = await KudosToggle.toggle(!post.kudosedByMe, on: postID, outbox: outbox) {
            await self.showStored()
        }
    }

    /// A form to correct the post (its workout's exercises, sets and times, its text), saved through the outbox;
    /// `nil` until the post is shown. The server refuses anyone's but the author's.
    public func editor() -> ComposeWorkoutViewModel? {
        post.map { ComposeWorkoutViewModel(editing: $0, client: client, outbox: outbox) }
    }

    /// Counts pushed over the socket (`post_likes_updated`, `post_comments_updated`) on this post's topic, and
    /// its edits (`post_updated`: the post as it now reads, its records detected again): kept in the database,
    /// so the feed shows them too.
    public func apply(_ event: RealtimeEvent) async {
        guard case .push(let push, _) = event else { return }
        if case .postUpdated(let updated) = push, updated.id == postID {
            do {
                try await database.save([updated])
                await showStored()
            } catch {
                errorMessage = FeedViewModel.message(error)
            }
            return
        }
        switch push {
        case .likesUpdated(let likes) where likes.id == postID: break
        case .commentsUpdated(let comments) where comments.id == postID: break
        default: return
        }
        do {
            try await database.applyCounts(push)
            await showStored()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func reloadPost() async {
        do {
            try await database.save([try await client.post(postID)])
            errorMessage = nil
            await showStored()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func observe() async {
        guard observation == nil else { return }
        await showStored()
        let values = database.observePost(postID)
        observation = Task { [weak self] in
            do {
                for try await value in values { self?.show(value) }
            } catch {
                self?.errorMessage = FeedViewModel.message(error)
            }
        }
    }

    private func showStored() async {
        do {
            show(try await database.readPost(postID))
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func show(_ read: Revisioned<Post?>) {
        if let post = shown.newer(read) { self.post = post }
    }
}
