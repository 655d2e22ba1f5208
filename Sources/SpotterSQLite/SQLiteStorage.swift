import Foundation
import GRDB
import SpotterCore

/// The default storage adapter: one SQLite file in WAL mode through GRDB, so `spotter serve` needs nothing
/// installed. Readers never block the single writer; writes are serialized by GRDB's writer queue, which is
/// also what makes each store's read-then-write steps atomic, and commit in batches (`SQLiteDatabase`).
public final class SQLiteStorage: SpotterStorage {
    let pool: DatabasePool
    /// What the stores go through: the pool and the unit of work (`write`).
    let database: SQLiteDatabase

    public let accounts: any AccountStore
    public let tokens: any TokenStore
    public let accountLinks: any AccountLinkStore
    public let idempotency: any IdempotencyStore
    public let graph: any GraphStore
    public let posts: any PostStore
    public let search: any SearchStore
    public let templates: any TemplateStore
    public let analytics: any AnalyticsStore
    public let notifications: any NotificationStore
    public let pushAddresses: any PushAddressStore
    public let deliveries: any DeliveryQueue
    public let media: any MediaStore
    public let groups: any GroupStore
    public let children: any ChildProfileStore
    public let e2e: any E2EStore
    public let nostr: any NostrStore

    /// Opens (creating if needed) the database file at `path`. Call `migrate()` before use. `durable: false`
    /// answers without syncing the log: for throwaway databases only (the test suite's, hundreds at once,
    /// where a sync per commit only queues on the disk).
    public init(path: String, durable: Bool = true) throws {
        pool = try DatabasePool(path: path, configuration: Self.configuration(syncsEachCommit: false))
        let database = SQLiteDatabase(pool: pool, durable: durable)
        self.database = database
        accounts = SQLiteAccountStore(database: database)
        tokens = SQLiteTokenStore(database: database)
        accountLinks = SQLiteAccountLinkStore(database: database)
        idempotency = SQLiteIdempotencyStore(database: database)
        graph = SQLiteGraphStore(database: database)
        let postStore = SQLitePostStore(database: database)
        posts = postStore
        search = SQLiteSearchStore(database: database, posts: postStore)
        templates = SQLiteTemplateStore(database: database)
        analytics = SQLiteAnalyticsStore(database: database)
        notifications = SQLiteNotificationStore(database: database)
        pushAddresses = SQLitePushAddressStore(database: database)
        deliveries = SQLiteDeliveryQueue(database: database)
        media = SQLiteMediaStore(database: database)
        groups = SQLiteGroupStore(database: database)
        children = SQLiteChildProfileStore(database: database)
        e2e = SQLiteE2EStore(database: database)
        nostr = SQLiteNostrStore(database: database)
    }

    public func write<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await database.unitOfWork(body)
    }

    /// How every Spotter SQLite file is opened (and `SQLiteWriteCeiling`'s, with `syncsEachCommit`, so its
    /// figure is SQLite's own durable commit rate).
    static func configuration(syncsEachCommit: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Concurrent writers wait for each other instead of failing with SQLITE_BUSY.
        configuration.busyMode = .timeout(10)
        // A batch of units of work keeps its transaction open on the writer between GRDB accesses, across the
        // awaits of the requests it holds; `SQLiteDatabase` makes that safe.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            // NORMAL: COMMIT writes the log without syncing it (SQLite still syncs around checkpoints). The
            // server syncs it once per batch of commits itself, off the writer, before anyone hears of them
            // (`SQLiteLogSync`), so an acknowledged write survives power loss all the same. FULL would sync
            // inside COMMIT, with the writer held.
            try db.execute(sql: syncsEachCommit ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
            // No memory map (`mmap_size`): it spares a read-only feed its `read(2)` copies, but in WAL mode
            // every reader unmaps the whole file whenever anyone has written since its last read, and maps and
            // faults it in again. With kudos arriving, that remapping cost far more than the copies it saved.
            if !db.configuration.readonly {
                // The writer's page cache is the only one that lasts: in WAL mode a reader drops its whole cache
                // whenever the file changed since its last read. Reads that follow a write run there
                // (`readOnWriter`), and a badge count alone visits about a hundred posts and notifications
                // spread over the file, so SQLite's default 2 MB thrashed under a steady stream of
                // notifications. 64 MB is an upper bound, filled only as pages are read.
                try db.execute(sql: "PRAGMA cache_size = -65536")
            }
        }
        return configuration
    }

    public func migrate() async throws {
        // Migrating waits for every reader to finish (a barrier). Blocking a concurrency thread on that can
        // deadlock: the test suite runs many apps at once on two threads, and a reader may need one of them to
        // finish. So the wait happens on GRDB's queue, and this task only suspends.
        let pool = self.pool
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            SQLiteMigrations.migrator.asyncMigrate(pool) { result in
                continuation.resume(with: result.map { _ in () })
            }
        }
    }

    /// Applies the migrations that come before `migration`: the schema as an older Spotter left it, for tests
    /// of what a later migration does to its data.
    public func migrate(before migration: String) async throws {
        let migrator = SQLiteMigrations.migrator
        guard let index = migrator.migrations.firstIndex(of: migration) else {
            preconditionFailure("no SQLite migration is named \(migration)")
        }
        guard index > 0 else { return }
        // On a thread of its own, for the reason `migrate()` gives.
        let pool = self.pool
        let last = migrator.migrations[index - 1]
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try migrator.migrate(pool, upTo: last) })
            }
        }
    }

    public func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
}

/// Turns SQLite's unique-constraint failures into `StorageError.duplicate`, naming the wire field.
func mappingConstraintErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as DatabaseError
        where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
        || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
    {
        let message = error.message ?? ""
        for (column, field) in [
            ("username_key", "username"), ("email_key", "email"), ("apple_subject", "apple_subject"),
        ]
        where message.contains(column) {
            throw StorageError.duplicate(field: field)
        }
        throw StorageError.duplicate(field: "id")
    }
}

extension Date {
    /// SQLite columns hold times as Unix seconds (REAL): exact round trips and plain comparisons in SQL.
    var sqliteValue: Double { timeIntervalSince1970 }
    init(sqliteValue: Double) { self.init(timeIntervalSince1970: sqliteValue) }
}
