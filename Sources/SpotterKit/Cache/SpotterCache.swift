import Foundation
import SpotterModels

/// The client's caches (the POWR seed's): feed pages served from cache while younger than `feedFreshness`
/// and refreshed in the background once older; the newest posts of each feed in memory (up to
/// `postsPerFeed`); posts and profiles kept in SQLite for reading offline, profiles refreshed after
/// `profileFreshness`, and cached posts older than `postRetention` cleaned up, except the user's own.
///
/// ```swift
/// let cache = SpotterCache(database: session.database, client: client, me: account.id)
/// let page = try await cache.firstPage(.following)   // cached if fresh; offline, what was kept
/// try await cache.refresh(.following)                // pull to refresh
/// ```
public actor SpotterCache {
    public struct Settings: Sendable {
        public var feedFreshness: TimeInterval = 30
        public var postsPerFeed = 1000
        public var profileFreshness: TimeInterval = 24 * 3600
        public var postRetention: TimeInterval = 30 * 24 * 3600
        public var pageSize = 20

        public init() {}
    }

    public let client: SpotterClient
    public let settings: Settings
    /// Whose posts are never cleaned up.
    public var me: UserID?
    /// Where posts and profiles are kept, shared with the outbox and the screens.
    public nonisolated let database: AppDatabase
    private let now: @Sendable () -> Date
    /// The newest posts of each feed, newest first, and when the feed was last fetched.
    private var feeds: [FeedKind: (posts: [Post], fetchedAt: Date)] = [:]
    private var refreshing: [FeedKind: Task<Void, Never>] = [:]

    /// - Parameter now: the clock, so tests can age the cache.
    public init(
        database: AppDatabase, client: SpotterClient, me: UserID? = nil, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.client = client
        self.me = me
        self.settings = settings
        self.now = now
        self.database = database
    }

    /// A cache in a database of its own at `path` (nil: in memory).
    public init(
        path: String?, client: SpotterClient, me: UserID? = nil, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.init(database: try AppDatabase(path: path), client: client, me: me, settings: settings, now: now)
    }

    // MARK: Feeds

    /// The feed's first page: from memory while fresh; when stale, the cached page now and a refresh in the
    /// background (see `cachedPosts`); with nothing in memory, from the server, or, offline, from what was
    /// kept on disk.
    public func firstPage(_ kind: FeedKind) async throws -> [Post] {
        if let cached = feeds[kind] {
            if now().timeIntervalSince(cached.fetchedAt) >= settings.feedFreshness { refreshInBackground(kind) }
            return Array(cached.posts.prefix(settings.pageSize))
        }
        do {
            return try await fetch(kind)
        } catch let error as SpotterClientError where error.isTransient {
            let kept = try await storedPosts(kind, limit: settings.pageSize)
            guard !kept.isEmpty else { throw error }
            return kept
        }
    }

    /// Pull to refresh: forgets the feed's cached page and fetches it again.
    @discardableResult
    public func refresh(_ kind: FeedKind) async throws -> [Post] {
        feeds[kind] = nil
        return try await fetch(kind)
    }

    /// What memory holds of the feed, newest first (after a background refresh, the refreshed posts).
    public func cachedPosts(_ kind: FeedKind) -> [Post] { feeds[kind]?.posts ?? [] }

    /// Waits for a background refresh of the feed, if one is running.
    public func settle(_ kind: FeedKind) async { await refreshing[kind]?.value }

    /// Adds posts that arrived live (or were made here) to the feed's memory, keeping it newest first and
    /// within `postsPerFeed`.
    public func insert(_ posts: [Post], into kind: FeedKind) async throws {
        var merged = (feeds[kind]?.posts ?? []).filter { old in !posts.contains { $0.id == old.id } } + posts
        merged.sort { $0.id.rawValue.uuidString > $1.id.rawValue.uuidString }
        feeds[kind] = (Array(merged.prefix(settings.postsPerFeed)), feeds[kind]?.fetchedAt ?? .distantPast)
        let newestFirst = posts.sorted { $0.id.rawValue.uuidString > $1.id.rawValue.uuidString }
        try await database.save(newestFirst, feed: kind, placement: .onTop, at: now())
    }

    private func fetch(_ kind: FeedKind) async throws -> [Post] {
        let page = try await client.feed(kind, limit: settings.pageSize)
        let older = feeds[kind]?.posts ?? []
        let merged = page.items + older.filter { old in !page.items.contains { $0.id == old.id } }
        feeds[kind] = (Array(merged.prefix(settings.postsPerFeed)), now())
        try await database.save(page.items, feed: kind, placement: .firstPage, at: now())
        return page.items
    }

    private func refreshInBackground(_ kind: FeedKind) {
        guard refreshing[kind] == nil else { return }
        refreshing[kind] = Task {
            _ = try? await self.fetch(kind)
            self.refreshing[kind] = nil
        }
    }

    // MARK: Profiles

    /// A profile: from disk while younger than `profileFreshness`, else from the server (or, offline, the
    /// kept one).
    public func profile(_ username: String) async throws -> Profile {
        let kept = try await database.profile(username)
        let keptProfile = kept?.profile
        if let kept, now().timeIntervalSince(kept.fetchedAt) < settings.profileFreshness {
            return kept.profile
        }
        do {
            let profile = try await client.profile(username)
            try await database.save(profile, username: username, fetchedAt: now())
            return profile
        } catch let error as SpotterClientError where error.isTransient {
            guard let keptProfile else { throw error }
            return keptProfile
        }
    }

    // MARK: Disk

    /// Removes cached posts kept longer than `postRetention`, except the user's own. Returns how many.
    @discardableResult
    public func cleanUp() async throws -> Int {
        try await database.deletePosts(cachedBefore: now().addingTimeInterval(-settings.postRetention), except: me)
    }

    /// The posts kept on disk for a feed, in its order.
    public func storedPosts(_ kind: FeedKind, limit: Int) async throws -> [Post] {
        try await database.feed(kind, limit: limit)
    }
}
