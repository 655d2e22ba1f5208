import Foundation
import SpotterNostr

/// Who may write to the relay.
public enum NostrWritePolicy: String, Sendable, CaseIterable {
    /// Keys linked to Spotter accounts in good standing; other keys get `OK false "restricted: …"`.
    case linked
    /// Every valid event, from any key (except the keys of suspended accounts).
    case open
}

/// The limits a relay operator expects, enforced on every connection and published in NIP-11's `limitation`.
public struct NostrRelayLimits: Sendable, Equatable {
    /// Largest WebSocket message, in bytes (`max_message_length`).
    public var maxMessageLength = 128 * 1024
    /// Largest event content, in UTF-8 bytes (`max_content_length`).
    public var maxContentLength = 64 * 1024
    /// Most tags on one event (`max_event_tags`).
    public var maxEventTags = 2000
    /// Open subscriptions per connection (`max_subscriptions`).
    public var maxSubscriptions = 20
    /// Filters per `REQ` or `COUNT` (`max_filters`).
    public var maxFilters = 10
    /// The largest `limit` a filter gets (`max_limit`); larger ones are cut to it.
    public var maxLimit = 500
    /// What a filter without `limit` gets (`default_limit`).
    public var defaultLimit = 500
    /// Longest subscription id (`max_subid_length`).
    public var maxSubscriptionIDLength = 64
    /// How far in the past an event's `created_at` may be, in seconds (`created_at_lower_limit`): three years,
    /// so a workout log kept offline or imported from another app still arrives.
    public var createdAtLowerLimit: Int64 = 3 * 365 * 24 * 3600
    /// How far in the future (`created_at_upper_limit`): clocks drift, but not by a quarter of an hour.
    public var createdAtUpperLimit: Int64 = 15 * 60
    /// Messages a connection may send per second; over it, events get `rate-limited:` and the rest is dropped.
    public var maxMessagesPerSecond = 100

    public init() {}
}

/// The checks an event passes before anything is stored: sizes and times (the relay's limits), then the id and
/// the signature. Pure, so the relay and its tests ask the same function.
public enum NostrEventRules {
    /// Why `event` can't be taken, as `OK false`'s message (with NIP-01's prefix), or `nil` when it can.
    public static func refusal(of event: NostrEvent, limits: NostrRelayLimits, now: Date) -> String? {
        let current = Int64(now.timeIntervalSince1970)
        if event.content.utf8.count > limits.maxContentLength {
            return "invalid: content is longer than \(limits.maxContentLength) bytes"
        }
        if event.tags.count > limits.maxEventTags {
            return "invalid: more than \(limits.maxEventTags) tags"
        }
        if event.tags.contains(where: \.isEmpty) { return "invalid: a tag is empty" }
        if event.createdAt > current + limits.createdAtUpperLimit {
            return "invalid: created_at is more than \(limits.createdAtUpperLimit) seconds in the future"
        }
        if event.createdAt < current - limits.createdAtLowerLimit {
            return "invalid: created_at is older than this relay keeps"
        }
        if !event.hasValidID { return "invalid: the id is not the hash of the event" }
        if !event.hasValidSignature { return "invalid: the signature does not verify" }
        return nil
    }

    /// Why these filters can't be served, as `CLOSED`'s message, or `nil`.
    public static func refusal(of filters: [NostrFilter], limits: NostrRelayLimits) -> String? {
        if filters.isEmpty { return "invalid: a REQ needs at least one filter" }
        if filters.count > limits.maxFilters { return "invalid: more than \(limits.maxFilters) filters" }
        return nil
    }
}
