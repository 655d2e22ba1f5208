import Foundation
import SpotterModels

/// Product analytics the Nova way: `track` stores an event at once (in SQLite, so unsent events survive a
/// restart) and the tracker sends them in batches when `flushAt` have gathered, every `interval`
/// (`runPeriodically`), and when the app goes to the background (`flush()`). Every event carries the device
/// context (`AnalyticsContext`: platform, app version, device model) and this install's random id, never who
/// the person is; a person who opts out (`setOptedOut(true)`) sends nothing more, and what waited is dropped.
///
/// `SpotterSession` and the view models feed it the seed's events: `app_foreground`, `app_background`,
/// `post_tap`, `notification_open`, `search_result_click`, `upload_success` (with its duration).
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
    public let context: AnalyticsContext
    /// Where events wait, in the client's one database.
    public nonisolated let database: AppDatabase
    private let now: @Sendable () -> Date
    private var flushing = false

    public init(
        database: AppDatabase, client: SpotterClient, flushAt: Int = 50, context: AnalyticsContext = AnalyticsContext(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.client = client
        self.flushAt = min(max(flushAt, 1), 100)
        self.context = context
        self.now = now
        self.database = database
    }

    /// A tracker with a database of its own at `path` (nil: in memory).
    public init(
        path: String?, client: SpotterClient, flushAt: Int = 50, now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.init(database: try AppDatabase(path: path), client: client, flushAt: flushAt, now: now)
    }

    /// Records an event with the device context; sends the batch once `flushAt` are waiting. Nothing, once
    /// the person opted out. The event's own properties win over the context's, within the server's 20.
    public func track(_ name: String, properties: [String: String] = [:]) async {
        guard (try? await database.analyticsOptedOut()) == false, let installID = try? await database.installID()
        else { return }
        var all = properties
        for (key, value) in context.properties(installID: installID) where all[key] == nil && all.count < 20 {
            all[key] = value
        }
        let event = AnalyticsEvent(name: name, occurredAt: now(), properties: all)
        let waiting = try? await database.add(event)
        if (waiting ?? 0) >= flushAt { await flush() }
    }

    /// Whether the person opted out of analytics on this install.
    public var isOptedOut: Bool {
        get async { (try? await database.analyticsOptedOut()) ?? false }
    }

    /// The person's choice, kept on this install: opting out drops what waits and stops every event after it.
    public func setOptedOut(_ optedOut: Bool) async throws {
        try await database.setAnalyticsOptedOut(optedOut)
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
