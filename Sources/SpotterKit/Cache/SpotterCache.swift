import Foundation
import GRDB
import SpotterModels

/// The client's caches (the POWR seed's): feed pages served from cache while younger than `feedFreshness`
/// and refreshed in the background once older; the newest posts of each feed in memory (up to
/// `postsPerFeed`); posts and profiles kept in SQLite for reading offline, profiles refreshed after
/// `profileFreshness`, and cached posts older than `postRetention` cleaned up, except the user's own.
///
/// ```swift
/// let cache = try SpotterCache(path: cachesFolder + "/cache.sqlite", client: client, me: account.id)
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
    private let database: DatabaseQueue
    private let now: @Sendable () -> Date
    /// The newest posts of each feed, newest first, and when the feed was last fetched.
    private var feeds: [FeedKind: (posts: [Post], fetchedAt: Date)] = [:]
    private var refreshing: [FeedKind: Task<Void, Never>] = [:]

    /// - Parameters:
    ///   - path: the SQLite file; nil keeps the cache in memory.
    ///   - now: the clock, so tests can age the cache.
    public init(
        path: String?, client: SpotterClient, me: UserID? = nil, settings: Settings = Settings(),
        now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.client = client
        self.me = me
        self.settings = settings
        self.now = now
        database = try openLocalDatabase(path)
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("cache") { db in
            try db.execute(
                sql: """
                    CREATE TABLE posts (
                        id TEXT PRIMARY KEY, author_id TEXT NOT NULL, json TEXT NOT NULL, cached_at REAL NOT NULL);
                    CREATE TABLE feed_items (
                        feed TEXT NOT NULL, post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                        PRIMARY KEY (feed, post_id));
                    CREATE TABLE profiles (username TEXT PRIMARY KEY, json TEXT NOT NULL, fetched_at REAL NOT NULL);
                    """)
        }
        return migrator
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
            let kept = try storedPosts(kind, limit: settings.pageSize)
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
    public func insert(_ posts: [Post], into kind: FeedKind) throws {
        var merged = (feeds[kind]?.posts ?? []).filter { old in !posts.contains { $0.id == old.id } } + posts
        merged.sort { $0.id.rawValue.uuidString > $1.id.rawValue.uuidString }
        feeds[kind] = (Array(merged.prefix(settings.postsPerFeed)), feeds[kind]?.fetchedAt ?? .distantPast)
        try store(posts, feed: kind)
    }

    private func fetch(_ kind: FeedKind) async throws -> [Post] {
        let page = try await client.feed(kind, limit: settings.pageSize)
        let older = feeds[kind]?.posts ?? []
        let merged = page.items + older.filter { old in !page.items.contains { $0.id == old.id } }
        feeds[kind] = (Array(merged.prefix(settings.postsPerFeed)), now())
        try store(page.items, feed: kind)
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
        let key = username.lowercased()
        let kept = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT json, fetched_at FROM profiles WHERE username = ?", arguments: [key])
        }
        let keptProfile = kept.flatMap { try? Self.decode(Profile.self, $0[0] as String) }
        if let keptProfile, let row = kept,
            now().timeIntervalSince(Date(timeIntervalSince1970: row[1])) < settings.profileFreshness
        {
            return keptProfile
        }
        do {
            let profile = try await client.profile(username)
            let json = try Self.encode(profile)
            let fetchedAt = now().timeIntervalSince1970
            try await database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO profiles (username, json, fetched_at) VALUES (?, ?, ?)",
                    arguments: [key, json, fetchedAt])
            }
            return profile
        } catch let error as SpotterClientError where error.isTransient {
            guard let keptProfile else { throw error }
            return keptProfile
        }
    }

    // MARK: Disk

    /// Removes cached posts kept longer than `postRetention`, except the user's own. Returns how many.
    @discardableResult
    public func cleanUp() throws -> Int {
        let cutoff = now().addingTimeInterval(-settings.postRetention).timeIntervalSince1970
        return try database.write { db in
            try db.execute(
                sql: "DELETE FROM posts WHERE cached_at < ? AND author_id IS NOT ?",
                arguments: [cutoff, me?.description])
            return db.changesCount
        }
    }

    /// The posts kept on disk for a feed, newest first.
    public func storedPosts(_ kind: FeedKind, limit: Int) throws -> [Post] {
        try database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT p.json FROM feed_items f JOIN posts p ON p.id = f.post_id
                    WHERE f.feed = ? ORDER BY p.id DESC LIMIT ?
                    """, arguments: [Self.key(kind), limit])
        }
        .compactMap { try? Self.decode(Post.self, $0) }
    }

    private func store(_ posts: [Post], feed kind: FeedKind) throws {
        let cachedAt = now().timeIntervalSince1970
        let rows = try posts.map { ($0.id.description, $0.author.id.description, try Self.encode($0)) }
        try database.write { db in
            for (id, author, json) in rows {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO posts (id, author_id, json, cached_at) VALUES (?, ?, ?, ?)",
                    arguments: [id, author, json, cachedAt])
                try db.execute(
                    sql: "INSERT OR IGNORE INTO feed_items (feed, post_id) VALUES (?, ?)",
                    arguments: [Self.key(kind), id])
            }
        }
    }

    static func key(_ kind: FeedKind) -> String {
        switch kind {
        case .following: "following"
        case .featured: "featured"
        case .global: "global"
        case .tag(let tag): "tag:\(tag.lowercased())"
        case .user(let username): "user:\(username.lowercased())"
        }
    }

    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try SpotterClient.encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try SpotterClient.decoder.decode(type, from: Data(json.utf8))
    }
}
