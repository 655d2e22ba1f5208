import Foundation
import GRDB
import Observation
import SpotterModels

/// One feed, ready for a SwiftUI list, offline first: it shows the feed kept in the client database at once
/// (a cold start without a network shows the last feed), keeps showing what the database holds through
/// `ValueObservation`, and refreshes it from the network. First page, more, pull to refresh, kudos that show
/// at once on every screen and change back if the server refuses, live posts held behind an "N new posts"
/// bar, and one's own posts shown while they are on their way (`sending`), replaced by the server's copy once
/// it has them, or set aside with the server's reason if it refuses them (`notSent`).
///
/// ```swift
/// struct FeedScreen: View {
///     @State var model: FeedViewModel
///     var body: some View {
///         List {
///             ForEach(model.sending) { SendingRow(post: $0, offline: $0.waitingForNetwork) }
///             ForEach(model.notSent) { NotSentRow(post: $0, reason: $0.refusal) }
///             ForEach(model.posts, id: \.id) { post in
///                 PostRow(post: post) { Task { await model.toggleKudos(post.id) } }
///                     .task { if post.id == model.posts.last?.id { await model.loadMore() } }
///             }
///         }
///         .overlay(alignment: .top) {
///             if model.newPostsCount > 0 { Button("\(model.newPostsCount) new posts") { model.showNewPosts() } }
///         }
///         .refreshable { await model.refresh() }
///         .task { await model.loadInitial() }
///     }
/// }
/// ```
@MainActor
@Observable
public final class FeedViewModel {
    public let kind: FeedKind
    /// The feed as the client database holds it.
    public private(set) var posts: [Post] = []
    /// Posts made on this device that belong in this feed (Following, one's own profile, a group's) and are on
    /// their way, oldest first: shown above `posts` at once, marked as sending (waiting for the network once a
    /// try failed for want of one), until the server's copy takes their place on top of `posts`.
    public private(set) var sending: [SendingPost] = []
    /// Posts of this feed the server refused for good, with its reason (`SendingPost.refusal`): no longer
    /// shown as sending, and kept for the person to `retry` or `discard`.
    public private(set) var notSent: [SendingPost] = []
    /// Live posts waiting behind the "N new posts" bar.
    public var newPostsCount: Int { waiting.count }
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    /// The last thing that went wrong, in words for the user; cleared by the next success.
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue
    private let analytics: AnalyticsTracker?
    private var database: AppDatabase { outbox.database }
    private var nextCursor: String?
    private var fetched = false
    private var waiting: [Post] = []
    /// The ids of `waiting` and of `posts`: a live post is looked up per arrival, and a busy feed brings
    /// thousands a day.
    private var waitingIDs: Set<PostID> = []
    private var shownIDs: Set<PostID> = []
    /// The connection was lost since the feed was loaded: what it missed comes with a refresh when it is back.
    private var disconnected = false
    private var shown = PostsShown<[Post]>()
    @ObservationIgnored nonisolated(unsafe) private var observation: Task<Void, Never>?
    /// Who is signed in, for `SendingPost.belongs(to:me:)` on a profile feed.
    private var me: String?

    /// - Parameters:
    ///   - outbox: where kudos go; the feed is read from its database.
    ///   - analytics: where `post_tap` goes.
    public init(kind: FeedKind, client: SpotterClient, outbox: ActionQueue, analytics: AnalyticsTracker? = nil) {
        self.kind = kind
        self.client = client
        self.outbox = outbox
        self.analytics = analytics
    }

    /// The session's feed: its client, outbox, database and analytics.
    public convenience init(kind: FeedKind, session: SpotterSession) {
        self.init(kind: kind, client: session.client, outbox: session.outbox, analytics: session.analytics)
    }

    /// A post was tapped to open it: counted (`post_tap`, with the feed it was in).
    public func opened(_ id: PostID) async {
        await analytics?.track("post_tap", properties: ["feed": kind.analyticsName])
    }

    deinit { observation?.cancel() }

    /// Shows the kept feed at once, keeps showing what the database holds, and fetches the first page once.
    public func loadInitial() async {
        await observe()
        guard !fetched else { return }
        // Fetched moments ago (another screen of the same feed, a relaunch): shown as kept (`CachePolicy`).
        if let kept = try? await database.feedFetch(kind),
            database.now().timeIntervalSince(kept.fetchedAt) < database.policy.feedFreshness
        {
            (fetched, nextCursor, hasMore) = (true, kept.nextCursor, kept.nextCursor != nil)
            return
        }
        await load(cursor: nil, placement: .firstPage)
    }

    public func loadMore() async {
        guard hasMore, !isLoading, let nextCursor else { return }
        await load(cursor: nextCursor, placement: .nextPage)
    }

    /// Pull to refresh: the newest page replaces the feed, and waiting live posts with it.
    public func refresh() async {
        waiting = []
        waitingIDs = []
        await observe()
        await load(cursor: nil, placement: .firstPage)
    }

    /// A post that arrived live: waits behind the bar unless it is shown already (then it is updated).
    public func receiveLive(_ post: Post) async {
        if shownIDs.contains(post.id) {
            do {
                try await database.save([post])
                await showStored()
            } catch {
                errorMessage = Self.message(error)
            }
        } else if waitingIDs.insert(post.id).inserted {
            waiting.append(post)
        }
    }

    /// An event from the realtime connection, for the posts this feed shows: their counts (`post_likes_updated`,
    /// `post_comments_updated`) and edits show at once (kept in the database, so every screen of the post
    /// follows), a deletion takes the post away, and after the connection was lost and is back the feed
    /// refreshes, since what happened meanwhile was not pushed to it. New posts are the caller's to route
    /// (`receiveLive`): which topic brings a feed's posts is the app's to choose. Every screen may be handed
    /// every event.
    public func receive(_ event: RealtimeEvent) async {
        switch event {
        case .push(.likesUpdated(let likes), _) where shownIDs.contains(likes.id):
            await applyCounts(.likesUpdated(likes))
        case .push(.commentsUpdated(let comments), _) where shownIDs.contains(comments.id):
            await applyCounts(.commentsUpdated(comments))
        case .push(.postUpdated(let post), _) where shownIDs.contains(post.id):
            await receiveLive(post)
        case .push(.postDeleted(let id), _) where shownIDs.contains(id):
            await receiveDeletion(id)
        case .connection(false):
            disconnected = true
        case .connection(true) where disconnected:
            disconnected = false
            await refresh()
        default:
            return
        }
    }

    private func applyCounts(_ push: RealtimePush) async {
        do {
            try await database.applyCounts(push)
            await showStored()
        } catch {
            errorMessage = Self.message(error)
        }
    }

    /// A post deleted on the server (a live `post_deleted`): it leaves the feed, and the bar if it waited there.
    public func receiveDeletion(_ id: PostID) async {
        waiting.removeAll { $0.id == id }
        do {
            try await database.deletePost(id)
            await showStored()
        } catch {
            errorMessage = Self.message(error)
        }
    }

    /// The bar was tapped: the waiting posts go on top, newest first.
    public func showNewPosts() async {
        let newestFirst = waiting.sorted { $0.id.rawValue.uuidString > $1.id.rawValue.uuidString }
        waiting = []
        waitingIDs = []
        do {
            try await database.save(newestFirst, feed: kind, placement: .onTop)
            await showStored()
        } catch {
            errorMessage = Self.message(error)
        }
    }

    /// Sends a post the server refused again, as it was (a post with photos the server could not take is
    /// discarded instead: they would be refused again).
    public func retry(_ post: SendingPost) async {
        switch post.id {
        case .outbox(let id):
            try? await outbox.retry(id)
            await showSending()
            _ = await outbox.drain()
        case .upload: await discard(post)
        }
        await showSending()
    }

    /// Gives up on a post that waits or was refused: it leaves the feed and its queue.
    public func discard(_ post: SendingPost) async {
        switch post.id {
        case .outbox(let id): try? await outbox.discard(id)
        case .upload(let id): try? await database.deleteUploadJob(id)
        }
        await showSending()
    }

    /// Gives or takes back kudos: shown at once here and on every screen of the post (the cached post and
    /// the queued action are one transaction), sent now or when the network is back, and changed back with
    /// the server's words if it refuses for good.
    public func toggleKudos(_ id: PostID) async {
        guard let post = posts.first(where: { $0.id == id }) else { return }
        errorMessage = await KudosToggle.toggle(!post.kudosedByMe, on: id, outbox: outbox) { await self.showStored() }
    }

    private func load(cursor: String?, placement: FeedPlacement) async {
        isLoading = true
        defer { isLoading = false }
        do {
            let page = try await client.feed(kind, cursor: cursor)
            try await database.save(page, feed: kind, placement: placement)
            fetched = true
            nextCursor = page.nextCursor
            hasMore = page.nextCursor != nil
            errorMessage = nil
            await showStored()
        } catch {
            errorMessage = Self.message(error)
        }
    }

    /// Starts following the database, after showing what it holds now.
    private func observe() async {
        guard observation == nil else { return }
        if case .user = kind { me = try? await database.me()?.username }
        await showStored()
        await showSending()
        // One observation for both, so a sending post and the server's copy of it are never shown together.
        let values = database.observeFeedAndSending(kind)
        observation = Task { [weak self] in
            do {
                for try await value in values {
                    self?.show(value.posts)
                    self?.show(sending: value.sending)
                }
            } catch {
                self?.errorMessage = Self.message(error)
            }
        }
    }

    /// Reads the feed and the posts on their way now: after a write of another model's (a group page's post)
    /// that the observation would bring a moment later.
    func showKept() async {
        await showStored()
        await showSending()
    }

    /// Reads the feed now: after a write of this screen's own, so the result is shown when the call returns.
    private func showStored() async {
        do {
            show(try await database.readFeed(kind))
        } catch {
            errorMessage = Self.message(error)
        }
    }

    private func showSending() async {
        do {
            show(sending: try await database.sendingPosts())
        } catch {
            errorMessage = Self.message(error)
        }
    }

    private func show(sending all: [SendingPost]) {
        let mine = all.filter { $0.belongs(to: kind, me: me) }
        let (refused, onTheWay) = (mine.filter { $0.refusal != nil }, mine.filter { $0.refusal == nil })
        if sending != onTheWay { sending = onTheWay }
        if notSent != refused { notSent = refused }
    }

    private func show(_ read: Revisioned<[Post]>) {
        if let posts = shown.newer(read) {
            self.posts = posts
            shownIDs = Set(posts.map(\.id))
        }
    }

    static func message(_ error: any Error) -> String {
        switch error {
        case SpotterClientError.problem(let problem), SpotterClientError.retryLater(let problem, _):
            problem.detail ?? problem.title
        case SpotterClientError.transport: "You're offline. Showing what was loaded."
        case SpotterClientError.signedOut: "Please sign in again."
        default: "Something went wrong."
        }
    }
}

extension FeedKind {
    /// The feed's name in analytics: its kind, never a hashtag, a person or a group.
    var analyticsName: String {
        switch self {
        case .following: "following"
        case .featured: "featured"
        case .global: "global"
        case .tag: "tag"
        case .user: "profile"
        case .group: "group"
        }
    }
}
