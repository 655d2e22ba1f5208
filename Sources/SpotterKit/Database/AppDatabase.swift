import Foundation
import GRDB

/// SpotterKit's one local database: the outbox, the caches of posts, feeds and profiles, and the analytics
/// events waiting to be sent, in one SQLite file (GRDB's `AppDatabase`). It owns the connection, migrates the
/// schema when it opens, and offers only writes that keep the data consistent: an optimistic kudos changes
/// the cached post and queues its action in one transaction; a post saved from the network keeps the kudos
/// still waiting in the outbox; a landed action leaves the queue as its result reaches the cache.
///
/// Screens read it through `ValueObservation` (see `FeedViewModel`), so a change shows on every screen as
/// soon as it commits, and a cold start without a network shows what was kept.
///
/// ```swift
/// let database = try AppDatabase(path: cachesFolder.appendingPathComponent("spotter.sqlite").path)
/// let outbox = ActionQueue(database: database, client: client)
/// let feed = FeedViewModel(kind: .following, client: client, outbox: outbox)
/// ```
///
/// `SpotterSession` opens one for the app; open one per file, and share it.
public final class AppDatabase: Sendable {
    /// The connection: a WAL pool on a file (an app extension or a second process may share it), a queue in
    /// memory.
    let writer: any DatabaseWriter
    /// The cache rules the database and its screens apply.
    public let policy: CachePolicy
    let now: @Sendable () -> Date

    /// For reads and observations of your own: `ValueObservation.tracking { … }.values(in: database.reader)`.
    public var reader: any DatabaseReader { writer }

    /// Opens the database at `path`, creating and migrating it as needed; nil keeps it in memory (tests,
    /// previews). A file written by an earlier SpotterKit (an outbox, cache or analytics file of its own)
    /// opens too: the migrations it lacks are applied.
    /// - Parameters:
    ///   - policy: the cache rules (`CachePolicy`, the POWR seed's by default).
    ///   - now: the clock the rules age things by.
    public init(
        path: String?, policy: CachePolicy = CachePolicy(), now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.policy = policy
        self.now = now
        var configuration = Configuration()
        // A second process on the same file (the `spotter` client, an extension) waits its turn.
        configuration.busyMode = .timeout(5)
        writer =
            if let path {
                try DatabasePool(path: path, configuration: configuration)
            } else {
                try DatabaseQueue(configuration: configuration)
            }
        try Self.migrator.migrate(writer)
    }

    /// One migration per change, named for what it does; the first three are the schemas of the separate
    /// outbox, cache and analytics files of earlier versions, unchanged.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("outbox") { db in
            try db.execute(
                sql: """
                    CREATE TABLE actions (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        entity TEXT NOT NULL,
                        action TEXT NOT NULL,
                        idempotency_key TEXT NOT NULL UNIQUE,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        failure TEXT,
                        created_at REAL NOT NULL
                    )
                    """)
        }
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
        migrator.registerMigration("analytics") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, json TEXT NOT NULL);
                    CREATE TABLE batches (key TEXT NOT NULL, last_event INTEGER NOT NULL);
                    """)
        }
        // A feed shows its posts in the server's order (the featured feed is ranked, not by time).
        migrator.registerMigration("feed positions") { db in
            try db.execute(sql: "ALTER TABLE feed_items ADD COLUMN position INTEGER NOT NULL DEFAULT 0")
        }
        // Every change to the cached posts counts one up, so a screen can tell a fresher read from an older
        // one (see `Revisioned`).
        migrator.registerMigration("posts revision") { db in
            try db.execute(sql: "CREATE TABLE revision (value INTEGER NOT NULL); INSERT INTO revision VALUES (0);")
            try countRevisions(of: ["posts", "feed_items"], db)
        }
        // Why an action's last try did not land (`PendingRetry.Reason`, or "refused" beside `failure`), what was
        // said, and when the next try is due (issue 24).
        migrator.registerMigration("actions retry schedule") { db in
            try db.execute(
                sql: """
                    ALTER TABLE actions ADD COLUMN last_error_kind TEXT;
                    ALTER TABLE actions ADD COLUMN last_error TEXT;
                    ALTER TABLE actions ADD COLUMN next_attempt_at REAL;
                    """)
        }
        // Earlier versions gave an action up after three network failures or server errors; those wait again.
        migrator.registerMigration("requeue actions given up for the network") { db in
            try requeueGivenUp(db)
        }
        // Posts with photos (issue 26): a job per post, its photos with their bytes and how far each got.
        migrator.registerMigration("upload jobs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE upload_jobs (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        post TEXT NOT NULL,
                        idempotency_key TEXT NOT NULL UNIQUE,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        failure TEXT,
                        last_error_kind TEXT,
                        last_error TEXT,
                        next_attempt_at REAL,
                        created_at REAL NOT NULL);
                    CREATE TABLE upload_photos (
                        job_id INTEGER NOT NULL REFERENCES upload_jobs(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        bytes BLOB NOT NULL,
                        content_type TEXT NOT NULL,
                        description TEXT,
                        focus TEXT,
                        stage TEXT NOT NULL,
                        presign_key TEXT NOT NULL,
                        upload TEXT,
                        PRIMARY KEY (job_id, position));
                    """)
        }
        registerNostrMigrations(&migrator)
        registerGroupMigrations(&migrator)
        registerNotificationMigrations(&migrator)
        registerSettingsMigrations(&migrator)
        registerSeenChainMigrations(&migrator)
        registerCacheRuleMigrations(&migrator)
        registerSearchMigrations(&migrator)
        registerCommentMigrations(&migrator)
        registerChildMigrations(&migrator)
        registerSealedMediaMigrations(&migrator)
        registerEpochKeyMigrations(&migrator)
        registerTemplateMigrations(&migrator)
        return migrator
    }
}

extension AppDatabase {
    /// Triggers that count the revision up on every change to `tables`, so a screen reading them can tell a
    /// fresher read from an older one (`Revisioned`). Migrations call it; the triggers' names stay as the
    /// first migrations made them.
    static func countRevisions(of tables: [String], _ db: Database) throws {
        for table in tables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(table)_\(event.lowercased())_revision AFTER \(event) ON \(table)
                        BEGIN UPDATE revision SET value = value + 1; END
                        """)
            }
        }
    }

    /// A value as the wire writes it, for a column of JSON.
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try SpotterClient.encoder.encode(value), as: UTF8.self)
    }
}

/// A value read from the database with the revision of the posts it was read at: of two reads, the one with
/// the higher revision is at least as fresh.
struct Revisioned<Value: Sendable>: Sendable {
    var revision: Int64
    var value: Value

    static func read(_ db: Database, _ value: (Database) throws -> Value) throws -> Revisioned {
        Revisioned(revision: try Int64.fetchOne(db, sql: "SELECT value FROM revision") ?? 0, value: try value(db))
    }
}
