import Foundation
import Observation
import SpotterModels

/// One group's page, offline first: its about page and its feed (newest first, paged) as the client database
/// keeps them, refreshed from the network; live posts from the group's realtime topic (`group:<id>`) held
/// behind an "N new posts" bar as `FeedViewModel` holds them; and notes posted to the group through the
/// outbox, so a note written offline reaches the group once when the network is back.
///
/// The app owns the one `RealtimeClient` and hands this model the events of its topic:
///
/// ```swift
/// let model = GroupFeedViewModel(groupID: club.id, session: session)
/// await model.loadInitial()
/// await model.startLive(session.realtime)
/// Task { for await event in session.realtime.events { await model.receive(event) } }
/// await model.post("Hill sprints Thursday at 7, who's in?")
/// ```
@MainActor
@Observable
public final class GroupFeedViewModel {
    public let groupID: GroupID
    /// The group's about page with my standing in it, as last fetched (kept offline).
    public private(set) var group: Group?
    /// The group's feed as the client database holds it, newest first.
    public var posts: [Post] { feed.posts }
    /// Live posts waiting behind the "N new posts" bar.
    public var newPostsCount: Int { feed.newPostsCount }
    public var isLoading: Bool { feed.isLoading }
    public var hasMore: Bool { feed.hasMore }
    /// Notes to this group still waiting in the outbox (offline, or the server busy), oldest first.
    public var pendingPosts: [CreatePostRequest] {
        sending.compactMap { post in if case .outbox = post.id { post.request } else { nil } }
    }
    /// This group's posts made on this device and on their way, notes and posts with photos alike, shown above
    /// `posts` until the server's copy takes their place (`FeedViewModel.sending`).
    public var sending: [SendingPost] { feed.sending }
    /// This group's posts the server refused for good, with its reason, to retry or discard.
    public var notSent: [SendingPost] { feed.notSent }
    /// The last thing that went wrong, in words for the user; cleared by the next success.
    public var errorMessage: String? { problem ?? feed.errorMessage }

    private let client: SpotterClient
    private let outbox: ActionQueue
    private let feed: FeedViewModel
    private var problem: String?
    private var database: AppDatabase { outbox.database }

    /// - Parameter outbox: where posts and kudos go; the group and its feed are kept in its database.
    public init(groupID: GroupID, client: SpotterClient, outbox: ActionQueue) {
        self.groupID = groupID
        self.client = client
        self.outbox = outbox
        feed = FeedViewModel(kind: .group(groupID), client: client, outbox: outbox)
    }

    /// The session's group page: its client, outbox and database.
    public convenience init(groupID: GroupID, session: SpotterSession) {
        self.init(groupID: groupID, client: session.client, outbox: session.outbox)
    }

    /// Shows the kept group and feed at once, then fetches both.
    public func loadInitial() async {
        if group == nil { group = try? await database.group(groupID) }
        await feed.showKept()
        await fetchGroup()
        await feed.loadInitial()
    }

    public func loadMore() async { await feed.loadMore() }

    /// Pull to refresh: the about page and the newest page, and waiting live posts with it.
    public func refresh() async {
        await fetchGroup()
        await feed.refresh()
    }

    /// The bar was tapped: the waiting posts go on top, newest first.
    public func showNewPosts() async { await feed.showNewPosts() }

    public func toggleKudos(_ id: PostID) async { await feed.toggleKudos(id) }

    public func retry(_ post: SendingPost) async {
        await feed.retry(post)
    }

    public func discard(_ post: SendingPost) async {
        await feed.discard(post)
    }

    /// Marks the group seen up to the newest post shown, so its `newPosts` ("3 new") counts from here; call it
    /// when the member has looked (the screen appeared, or was scrolled to the top).
    public func markSeen() async {
        guard let newest = posts.first else { return }
        do {
            let updated = try await client.markGroupSeen(groupID, upTo: newest.id)
            try await database.save(updated)
            group = updated
        } catch {
            problem = FeedViewModel.message(error)
        }
    }

    // MARK: Live

    /// Joins the group's topic on the app's realtime connection (and after every reconnect); hand its events to
    /// `receive(_:)`.
    public func startLive(_ realtime: RealtimeClient) async { await realtime.join(.group(groupID)) }

    public func stopLive(_ realtime: RealtimeClient) async { await realtime.leave(.group(groupID)) }

    /// An event from the realtime connection: a new post of this group waits behind the bar, an edit to a post
    /// shown shows at once, a deletion takes the post away, and a topic that missed too much reloads. Events of
    /// other topics are ignored, so every screen may be handed every event.
    public func receive(_ event: RealtimeEvent) async {
        let topic = RealtimeTopic.group(groupID)
        switch event {
        case .newPost(let post, let from) where from == topic || post.group?.id == groupID:
            await feed.receiveLive(post)
        case .push(.postUpdated(let post), _)
        where post.group?.id == groupID && posts.contains(where: { $0.id == post.id }):
            await feed.receiveLive(post)
        case .push(.postDeleted(let id), let from) where from == topic || posts.contains(where: { $0.id == id }):
            await feed.receiveDeletion(id)
        case .push(.likesUpdated, _), .push(.commentsUpdated, _), .connection:
            await feed.receive(event)
        case .reset(let from) where from == topic:
            await refresh()
        default:
            return
        }
    }

    // MARK: Posting

    /// Posts a note to the group through the outbox: kept before it is sent, sent now if the network allows,
    /// else when it is back (`ActionQueue.drain`, or `sendWaiting()`), and landing once whatever is retried.
    /// Returns whether it was sent or is waiting; false when the server refused it (`errorMessage` says why).
    @discardableResult
    public func post(_ text: String) async -> Bool {
        do {
            let queued = try await outbox.enqueue(
                .createPost(CreatePostRequest(kind: .note, text: text, groupID: groupID)))
            let outcomes = await outbox.drain()
            for case .refused(let refused, let problem) in outcomes where refused.id == queued.id {
                try? await outbox.discard(refused.id)
                self.problem = problem.explanation
                await feed.showKept()
                return false
            }
            problem = nil
            await feed.showKept()  // a post that landed is on top of the feed already (the drain put it there)
            return true
        } catch {
            problem = FeedViewModel.message(error)
            return false
        }
    }

    /// Sends what waits in the outbox now (the network is back), and shows the group's posts that landed.
    public func sendWaiting() async {
        _ = await outbox.drain(ignoringBackoff: true)
        await feed.showKept()
    }

    private func fetchGroup() async {
        do {
            let fetched = try await client.group(groupID)
            try await database.save(fetched)
            group = fetched
            problem = nil
        } catch SpotterClientError.problem(let refused) where refused.status == 404 {
            // Deleted, or private and no longer mine: it does not exist for me any more.
            try? await database.forget(groupID)
            group = nil
            problem = refused.detail ?? refused.title
        } catch {
            problem = FeedViewModel.message(error)
        }
    }
}
