import Foundation
import SpotterModels

/// Product analytics the Nova way: `track` stores an event at once (in SQLite, so unsent events survive a
/// restart) and the tracker sends them in batches when `flushAt` have gathered, every `interval`
/// (`runPeriodically`), and when the app goes to the background (`flush()`).
///
/// ```swift
/// let analytics = AnalyticsTracker(database: session.database, client: client)
/// await analytics.track("screen.feed")
/// // in sceneDidEnterBackground:
/// await analytics.flush()
/// ```
public actor AnalyticsTracker {
    public let client: SpotterClient
    public let flushAt: Int
    /// Where events wait, in the client's one database.
    public nonisolated let database: AppDatabase
    private let now: @Sendable () -> Date
    private var flushing = false

    public init(
        database: AppDatabase, client: SpotterClient, flushAt: Int = 50,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.client = client
        self.flushAt = min(max(flushAt, 1), 100)
        self.now = now
        self.database = database
    }

    /// A tracker with a database of its own at `path` (nil: in memory).
    public init(
        path: String?, client: SpotterClient, flushAt: Int = 50, now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.init(database: try AppDatabase(path: path), client: client, flushAt: flushAt, now: now)
    }

    /// Records an event; sends the batch once `flushAt` are waiting.
    public func track(_ name: String, properties: [String: String] = [:]) async {
        let event = AnalyticsEvent(name: name, occurredAt: now(), properties: properties)
        let waiting = try? await database.add(event)
        if (waiting ?? 0) >= flushAt { await flush() }
    }

    /// Events waiting to be sent.
    public var waiting: Int {
        get async { (try? await database.waitingEvents()) ?? 0 }
    }

    /// Sends what waits, up to 100 at a time, oldest first. A batch keeps its idempotency key until it is
    /// sent, so a batch whose answer was lost is not counted twice. Failures keep the events for next time.
    public func flush() async {
        guard !flushing else { return }
        flushing = true
        defer { flushing = false }
        while true {
            guard let batch = try? await database.nextAnalyticsBatch(), !batch.events.isEmpty else { return }
            do {
                try await client.sendAnalytics(batch.events, idempotencyKey: batch.key)
                try await database.deleteEvents(through: batch.lastID)
            } catch let error as SpotterClientError
                where (400..<500).contains(error.status ?? 0) && error.status != 401 && !error.isTransient
            {
                // Refused for good (too old, say): drop them rather than retry forever.
                try? await database.deleteEvents(through: batch.lastID)
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
}
