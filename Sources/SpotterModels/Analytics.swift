import Foundation

/// One thing a user did in an app, for product analytics (the Nova seed's tracker).
public struct AnalyticsEvent: Codable, Sendable, Equatable {
    /// Lowercase letters, digits, `_` and `.`, 1 to 64 characters: `screen.feed`, `kudos_given`.
    public var name: String
    public var occurredAt: Date
    /// Up to 20 short string values; never anything secret.
    public var properties: [String: String]

    public init(name: String, occurredAt: Date, properties: [String: String] = [:]) {
        self.name = name
        self.occurredAt = occurredAt
        self.properties = properties
    }

    enum CodingKeys: String, CodingKey {
        case name
        case occurredAt = "occurred_at"
        case properties
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        occurredAt = try container.decode(Date.self, forKey: .occurredAt)
        properties = try container.decodeIfPresent([String: String].self, forKey: .properties) ?? [:]
    }
}

/// `POST /api/v1/analytics/events`: 1 to 100 events, sent together.
public struct AnalyticsBatch: Codable, Sendable, Equatable {
    public var events: [AnalyticsEvent]

    public init(events: [AnalyticsEvent]) { self.events = events }
}

/// The answer to a batch: how many events were stored.
public struct AnalyticsAccepted: Codable, Sendable, Equatable {
    public var accepted: Int

    public init(accepted: Int) { self.accepted = accepted }
}
