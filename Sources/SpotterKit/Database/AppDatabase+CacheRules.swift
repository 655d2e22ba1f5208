import Foundation
import GRDB
import SpotterModels

/// The POWR seed's cache rules (issue 40, item 5), in one place, applied by the client database itself and by
/// the view models that read it. There is one cache: what the screens show is what the database holds.
///
/// - A feed fetched less than `feedFreshness` ago is shown as kept, without asking again (pull to refresh
///   always asks).
/// - A feed holds its newest `itemsPerFeed` posts: live posts on top push the oldest out. Pages scrolled in
///   with "more" stay until the next first page.
/// - A profile is fetched again once it is older than `profileFreshness` (or on pull to refresh).
/// - Clean-up, at most every `cleanUpInterval` (`SpotterSession` runs it on foreground): posts cached more
///   than `postRetention` ago go, and so do posts no feed holds any more after `looseRetention` (one opened
///   from a notification, one pushed out of a full feed); profiles go after `postRetention`. The signed-in
///   person's own posts and profile always stay; with nobody known to be signed in, nothing is cleaned.
public struct CachePolicy: Sendable, Equatable {
    public var feedFreshness: TimeInterval = 30
    public var itemsPerFeed = 1_000
    public var profileFreshness: TimeInterval = 24 * 3600
    public var postRetention: TimeInterval = 30 * 24 * 3600
    public var looseRetention: TimeInterval = 24 * 3600
    public var cleanUpInterval: TimeInterval = 24 * 3600

    public init() {}
}

/// What one clean-up removed.
public struct CacheCleanUp: Sendable, Equatable {
    public var posts = 0
    public var profiles = 0

    public init(posts: Int = 0, profiles: Int = 0) {
        self.posts = posts
        self.profiles = profiles
    }
}

extension AppDatabase {
    static func registerCacheRuleMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("cache rules") { db in
            // `feed_items_by_post`: removing a post deletes its feed places (the cascade) and the clean-up asks
            // whether any feed holds a post; both look up by post, which the (feed, post) key cannot serve.
            try db.execute(
                sql: """
                    CREATE TABLE feed_fetches (feed TEXT PRIMARY KEY, fetched_at REAL NOT NULL, next_cursor TEXT);
                    CREATE INDEX feed_items_by_post ON feed_items (post_id);
                    CREATE INDEX posts_by_cached_at ON posts (cached_at);
                    """)
        }
    }

    /// When the feed's first page was fetched and the cursor of what follows the pages kept; nil if never.
    func feedFetch(_ kind: FeedKind) async throws -> (fetchedAt: Date, nextCursor: String?)? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT fetched_at, next_cursor FROM feed_fetches WHERE feed = ?", arguments: [kind.cacheKey]
            ).map { (Date(timeIntervalSince1970: $0[0]), $0[1]) }
        }
    }

    /// Keeps a page fetched from the network, and the cursor of the page after it.
    func save(_ page: Page<Post>, feed kind: FeedKind, placement: FeedPlacement) async throws {
        try await save(page.items, feed: kind, placement: placement)
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE feed_fetches SET next_cursor = ? WHERE feed = ?",
                arguments: [page.nextCursor, kind.cacheKey])
        }
    }

    /// Inside `save`: a first page is a fetch to remember; a feed past `itemsPerFeed` loses its oldest places.
    static func applyFeedRules(
        _ key: String, placement: FeedPlacement, at now: Date, policy: CachePolicy, _ db: Database
    )
        throws
    {
        if placement == .firstPage {
            try db.execute(
                sql: "INSERT OR REPLACE INTO feed_fetches (feed, fetched_at) VALUES (?, ?)",  // the cursor follows
                arguments: [key, now.timeIntervalSince1970])
        }
        guard placement != .nextPage else { return }
        try db.execute(
            sql: """
                DELETE FROM feed_items WHERE feed = ?1 AND position > (
                    SELECT position FROM feed_items WHERE feed = ?1 ORDER BY position LIMIT 1 OFFSET ?2)
                """,
            arguments: [key, policy.itemsPerFeed - 1])
    }

    // MARK: Who is signed in

    /// The signed-in person, whose posts and profile clean-up keeps; nil until `SpotterSession` learns it.
    public func me() async throws -> (id: UserID, username: String)? {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM client_settings WHERE key IN ('me_id', 'me_username')")
            let values = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as String) })
            guard let id = values["me_id"].flatMap(UserID.init), let username = values["me_username"] else {
                return nil
            }
            return (id, username)
        }
    }

    func saveMe(_ account: Account) async throws {
        try await writer.write { db in
            for (key, value) in [("me_id", account.id.description), ("me_username", account.username.lowercased())] {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO client_settings (key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
    }

    /// Signing out: what was kept for this person goes, so the next one signed in on the device sees none of
    /// it, and no change of theirs still queued is sent with the next one's token.
    func forgetPerson() async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM feed_items; DELETE FROM feed_fetches; DELETE FROM posts; DELETE FROM profiles;
                    DELETE FROM inbox_groups; DELETE FROM inbox_counts; DELETE FROM actions; DELETE FROM upload_photos;
                    DELETE FROM upload_jobs; DELETE FROM search_results; DELETE FROM comments;
                    DELETE FROM comment_fetches; DELETE FROM kept_children; DELETE FROM group_list_items;
                    DELETE FROM cached_groups; DELETE FROM group_invitations_waiting; DELETE FROM sealed_media;
                    DELETE FROM wrapped_epoch_keys; DELETE FROM kept_templates;
                    DELETE FROM client_settings WHERE key IN ('me_id', 'me_username', 'cleaned_up_at');
                    """)
        }
    }

    // MARK: Clean-up

    /// Cleans up if the last clean-up was `cleanUpInterval` ago or more (nil: not due, or nobody known).
    public func cleanUpIfDue() async throws -> CacheCleanUp? {
        let now = now()
        guard let me = try await me() else { return nil }
        let last = try await writer.read { db in
            try Double.fetchOne(db, sql: "SELECT CAST(value AS REAL) FROM client_settings WHERE key = 'cleaned_up_at'")
        }
        if let last, now.timeIntervalSince1970 - last < policy.cleanUpInterval { return nil }
        return try await cleanUp(keeping: me, at: now)
    }

    /// Applies the clean-up rules now, keeping `me`'s posts and profile.
    func cleanUp(keeping me: (id: UserID, username: String), at now: Date) async throws -> CacheCleanUp {
        let old = now.addingTimeInterval(-policy.postRetention).timeIntervalSince1970
        let loose = now.addingTimeInterval(-policy.looseRetention).timeIntervalSince1970
        return try await writer.write { db in
            var removed = CacheCleanUp()
            try db.execute(
                sql: """
                    DELETE FROM posts WHERE author_id <> ?1 AND (cached_at < ?2 OR (cached_at < ?3
                        AND NOT EXISTS (SELECT 1 FROM feed_items WHERE post_id = posts.id)))
                    """,
                arguments: [me.id.description, old, loose])
            removed.posts = db.changesCount
            try Self.cleanUpComments(db)
            try db.execute(
                sql: "DELETE FROM profiles WHERE fetched_at < ? AND username <> ?", arguments: [old, me.username])
            removed.profiles = db.changesCount
            try db.execute(
                sql: "INSERT OR REPLACE INTO client_settings (key, value) VALUES ('cleaned_up_at', ?)",
                arguments: [String(now.timeIntervalSince1970)])
            return removed
        }
    }
}
