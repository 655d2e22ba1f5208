import Foundation
import GRDB
import Observation
import SpotterModels

/// One feed, ready for a SwiftUI list, offline first: it shows the feed kept in the client database at once
/// (a cold start without a network shows the last feed), keeps showing what the database holds through
/// `ValueObservation`, and refreshes it from the network. First page, more, pull to refresh, kudos that show
/// at once on every screen and change back if the server refuses, and live posts held behind an
/// "N new posts" bar.
///
/// ```swift
/// struct FeedScreen: View {
///     @State var model: FeedViewModel
///     var body: some View {
///         List(model.posts, id: \.id) { post in
///             PostRow(post: post) { Task { await model.toggleKudos(post.id) } }
///                 .task { if post.id == model.posts.last?.id { await model.loadMore() } }
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
    /// The connection was lost since the feed was loaded: what it missed comes with a refresh when it is back.
    private var disconnected = false
    private var shown = PostsShown<[Post]>()
    @ObservationIgnored nonisolated(unsafe) private var observation: Task<Void, Never>?

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
        await observe()
        await load(cursor: nil, placement: .firstPage)
    }

    /// A post that arrived live: waits behind the bar unless it is shown already (then it is updated).
    public func receiveLive(_ post: Post) async {
        if posts.contains(where: { $0.id == post.id }) {
            do {
                try await database.save([post])
                await showStored()
            } catch {
                errorMessage = Self.message(error)
            }
        } else if !waiting.contains(where: { $0.id == post.id }) {
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
        case .push(.likesUpdated(let likes), _) where posts.contains(where: { $0.id == likes.id }):
            await applyCounts(.likesUpdated(likes))
        case .push(.commentsUpdated(let comments), _) where posts.contains(where: { $0.id == comments.id }):
            await applyCounts(.commentsUpdated(comments))
        case .push(.postUpdated(let post), _) where posts.contains(where: { $0.id == post.id }):
            await receiveLive(post)
        case .push(.postDeleted(let id), _) where posts.contains(where: { $0.id == id }):
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
        do {
            try await database.save(newestFirst, feed: kind, placement: .onTop)
            await showStored()
        } catch {
            errorMessage = Self.message(error)
        }
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
        await showStored()
        let values = database.observeFeed(kind)
        observation = Task { [weak self] in
            do {
                for try await value in values { self?.show(value) }
            } catch {
                self?.errorMessage = Self.message(error)
            }
        }
    }

    /// Reads the feed now: after a write of this screen's own, so the result is shown when the call returns.
    private func showStored() async {
        do {
            show(try await database.readFeed(kind))
        } catch {
            errorMessage = Self.message(error)
        }
    }

    private func show(_ read: Revisioned<[Post]>) {
        if let posts = shown.newer(read) { self.posts = posts }
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
