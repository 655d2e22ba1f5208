import Foundation
import GRDB
import SpotterModels

/// Product analytics the Nova way: `track` stores an event at once (in SQLite, so unsent events survive a
/// restart) and the tracker sends them in batches when `flushAt` have gathered, every `interval`
/// (`runPeriodically`), and when the app goes to the background (`flush()`).
///
/// ```swift
/// let analytics = try AnalyticsTracker(path: cachesFolder + "/analytics.sqlite", client: client)
/// await analytics.track("screen.feed")
/// // in sceneDidEnterBackground:
/// await analytics.flush()
/// ```
public actor AnalyticsTracker {
    public let client: SpotterClient
    public let flushAt: Int
    private let database: DatabaseQueue
    private let now: @Sendable () -> Date
    private var flushing = false

    public init(
        path: String?, client: SpotterClient, flushAt: Int = 50, now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.client = client
        self.flushAt = min(max(flushAt, 1), 100)
        self.now = now
        database = try openLocalDatabase(path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("analytics") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, json TEXT NOT NULL);
                    CREATE TABLE batches (key TEXT NOT NULL, last_event INTEGER NOT NULL);
                    """)
        }
        try migrator.migrate(database)
    }

    /// Records an event; sends the batch once `flushAt` are waiting.
    public func track(_ name: String, properties: [String: String] = [:]) async {
        let event = AnalyticsEvent(name: name, occurredAt: now(), properties: properties)
        guard let json = try? String(decoding: SpotterClient.encoder.encode(event), as: UTF8.self) else { return }
        let waiting = try? await database.write { db -> Int in
            try db.execute(sql: "INSERT INTO events (json) VALUES (?)", arguments: [json])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0
        }
        if (waiting ?? 0) >= flushAt { await flush() }
    }

    /// Events waiting to be sent.
    public var waiting: Int {
        (try? database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") }) ?? 0
    }

    /// Sends what waits, up to 100 at a time, oldest first. A batch keeps its idempotency key until it is
    /// sent, so a batch whose answer was lost is not counted twice. Failures keep the events for next time.
    public func flush() async {
        guard !flushing else { return }
        flushing = true
        defer { flushing = false }
        while true {
            guard let batch = try? nextBatch(), !batch.events.isEmpty else { return }
            do {
                try await client.sendAnalytics(batch.events.map(\.event), idempotencyKey: batch.key)
                try await database.write { db in
                    try db.execute(sql: "DELETE FROM events WHERE id <= ?", arguments: [batch.lastID])
                    try db.execute(sql: "DELETE FROM batches")
                }
            } catch SpotterClientError.problem(let problem)
                where (400..<500).contains(problem.status)
                && problem.status != 401 && problem.status != 429
            {
                // Refused for good (too old, say): drop them rather than retry forever.
                _ = try? await database.write { db in
                    try db.execute(sql: "DELETE FROM events WHERE id <= ?", arguments: [batch.lastID])
                    try db.execute(sql: "DELETE FROM batches")
                }
            } catch {
                return
            }
        }
    }

    /// Flushes every `interval` until the task is cancelled.
    public func runPeriodically(every interval: Duration = .seconds(30)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            await flush()
        }
    }

    /// The oldest events (up to 100) and the key of their batch: the same batch and key as a failed try's,
    /// so the server can tell a resend from new events.
    private func nextBatch() throws -> (key: String, lastID: Int64, events: [(id: Int64, event: AnalyticsEvent)]) {
        try database.write { db in
            var key = SpotterClient.newKey()
            var limit: Int64 = .max
            if let row = try Row.fetchOne(db, sql: "SELECT key, last_event FROM batches") {
                key = row[0]
                limit = row[1]
            }
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, json FROM events WHERE id <= ? ORDER BY id LIMIT 100", arguments: [limit])
            let events = rows.compactMap { row -> (id: Int64, event: AnalyticsEvent)? in
                guard
                    let event = try? SpotterClient.decoder.decode(
                        AnalyticsEvent.self, from: Data((row[1] as String).utf8))
                else { return nil }
                return (row[0], event)
            }
            try db.execute(sql: "DELETE FROM batches")
            guard let lastID = rows.last.map({ $0[0] as Int64 }) else { return (key, 0, []) }  // nothing waits
            try db.execute(sql: "INSERT INTO batches (key, last_event) VALUES (?, ?)", arguments: [key, lastID])
            return (key, lastID, events)
        }
    }
}
