import Foundation
import SpotterModels

/// Stored analytics events.
public protocol AnalyticsStore: Sendable {
    func insert(_ events: [AnalyticsRecord]) async throws
    /// Distinct users with an event, per UTC day (`yyyy-MM-dd`), from `since` on, oldest day first.
    func dailyActiveUsers(since: Date) async throws -> [DailyCount]
    /// The most frequent event names from `since` on, most frequent first.
    func topEvents(since: Date, limit: Int) async throws -> [NameCount]
}

public struct AnalyticsRecord: Sendable, Equatable {
    public var userID: UserID
    public var event: AnalyticsEvent
    public var receivedAt: Date

    public init(userID: UserID, event: AnalyticsEvent, receivedAt: Date) {
        self.userID = userID
        self.event = event
        self.receivedAt = receivedAt
    }
}

public struct DailyCount: Sendable, Equatable {
    public var day: String
    public var count: Int

    public init(day: String, count: Int) {
        self.day = day
        self.count = count
    }
}

public struct NameCount: Sendable, Equatable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

/// Takes batches of analytics events from signed-in users, checks every field, and reports daily active
/// users and top events (`spotter analytics`).
public struct AnalyticsService: Sendable {
    public static let maxBatch = 100
    public static let maxProperties = 20
    /// Events are accepted from a week back (an app offline for days still sends them) to a little ahead
    /// (clock skew).
    public static let maxAge: TimeInterval = 7 * 24 * 3600
    public static let maxSkew: TimeInterval = 3600

    let storage: any SpotterStorage
    let clock: any WallClock

    public init(storage: any SpotterStorage, clock: any WallClock) {
        self.storage = storage
        self.clock = clock
    }

    /// Stores the batch whole, or refuses it naming every bad field (nothing is stored then).
    public func record(_ batch: AnalyticsBatch, from user: AccountRecord) async throws -> AnalyticsAccepted {
        let now = clock.now
        var problems: [FieldError] = []
        if !(1...Self.maxBatch).contains(batch.events.count) {
            problems.append(FieldError(field: "events", detail: "must hold 1 to \(Self.maxBatch) events"))
        }
        for (index, event) in batch.events.enumerated() {
            let path = "events[\(index)]"
            if !Self.isName(event.name) {
                problems.append(
                    FieldError(field: "\(path).name", detail: "must be 1 to 64 of a-z, 0-9, _ and ."))
            }
            let age = now.timeIntervalSince(event.occurredAt)
            if age > Self.maxAge || age < -Self.maxSkew {
                problems.append(FieldError(field: "\(path).occurred_at", detail: "must be within the last 7 days"))
            }
            if event.properties.count > Self.maxProperties {
                problems.append(
                    FieldError(field: "\(path).properties", detail: "must hold at most \(Self.maxProperties)"))
            }
            for (key, value) in event.properties.sorted(by: { $0.key < $1.key }) {
                // A key is named only once it is known to be printable: it becomes part of the field's name.
                if let problem = TextInput.problem(in: key, as: .line) {
                    problems.append(FieldError(field: "\(path).properties", detail: "keys \(problem)"))
                } else if let problem = TextInput.problem(in: value, as: .line) {
                    problems.append(FieldError(field: "\(path).properties.\(key)", detail: problem))
                } else if key.isEmpty || key.textLength > 40 || value.textLength > 200 {
                    problems.append(
                        FieldError(
                            field: "\(path).properties.\(key)", detail: "keys must be 1 to 40 characters, values 200"))
                }
            }
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        try await storage.analytics.insert(
            batch.events.map { AnalyticsRecord(userID: user.id, event: $0, receivedAt: now) })
        return AnalyticsAccepted(accepted: batch.events.count)
    }

    public struct Report: Sendable, Equatable {
        public var dailyActiveUsers: [DailyCount]
        public var topEvents: [NameCount]
    }

    public func report(days: Int, top: Int = 10) async throws -> Report {
        let since = clock.now.addingTimeInterval(-Double(max(days, 1)) * 24 * 3600)
        return Report(
            dailyActiveUsers: try await storage.analytics.dailyActiveUsers(since: since),
            topEvents: try await storage.analytics.topEvents(since: since, limit: top))
    }

    static func isName(_ name: String) -> Bool {
        (1...64).contains(name.count)
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "."
            }
    }
}
