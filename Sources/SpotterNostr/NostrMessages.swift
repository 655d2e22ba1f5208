import Foundation

/// What a client sends a relay (NIP-01, NIP-42 `AUTH`, NIP-45 `COUNT`).
///
/// <https://github.com/nostr-protocol/nips/blob/master/01.md>
/// <https://github.com/nostr-protocol/nips/blob/master/42.md>
/// <https://github.com/nostr-protocol/nips/blob/master/45.md>
public enum NostrClientMessage: Sendable, Hashable {
    case event(NostrEvent)
    case request(subscription: String, filters: [NostrFilter])
    case close(subscription: String)
    case auth(NostrEvent)
    case count(subscription: String, filters: [NostrFilter])
}

/// What a relay sends a client (NIP-01, NIP-42 `AUTH`, NIP-45 `COUNT`).
///
/// <https://github.com/nostr-protocol/nips/blob/master/01.md>
public enum NostrRelayMessage: Sendable, Hashable {
    case event(subscription: String, NostrEvent)
    /// `accepted` with a message that starts with one of NIP-01's prefixes (`duplicate:`, `invalid:`, …) when
    /// it says why.
    case ok(NostrEventID, accepted: Bool, message: String)
    case endOfStoredEvents(subscription: String)
    case closed(subscription: String, message: String)
    case notice(String)
    case auth(challenge: String)
    case count(subscription: String, count: Int)
}

/// Why a message could not be read, as a relay's `NOTICE` says it.
public struct NostrMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

// MARK: Codable: messages are JSON arrays whose first element names the type.

extension NostrClientMessage: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let type = try container.decode(String.self)
        switch type {
        case "EVENT": self = .event(try container.decode(NostrEvent.self))
        case "AUTH": self = .auth(try container.decode(NostrEvent.self))
        case "CLOSE": self = .close(subscription: try container.decode(String.self))
        case "REQ", "COUNT":
            let subscription = try container.decode(String.self)
            var filters: [NostrFilter] = []
            while !container.isAtEnd { filters.append(try container.decode(NostrFilter.self)) }
            self =
                type == "REQ"
                ? .request(subscription: subscription, filters: filters)
                : .count(subscription: subscription, filters: filters)
        default:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown message type \(type)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .event(let event):
            try container.encode("EVENT")
            try container.encode(event)
        case .auth(let event):
            try container.encode("AUTH")
            try container.encode(event)
        case .close(let subscription):
            try container.encode("CLOSE")
            try container.encode(subscription)
        case .request(let subscription, let filters), .count(let subscription, let filters):
            if case .request = self { try container.encode("REQ") } else { try container.encode("COUNT") }
            try container.encode(subscription)
            for filter in filters { try container.encode(filter) }
        }
    }
}

extension NostrRelayMessage: Codable {
    private struct CountBody: Codable { var count: Int }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let type = try container.decode(String.self)
        switch type {
        case "EVENT":
            let subscription = try container.decode(String.self)
            self = .event(subscription: subscription, try container.decode(NostrEvent.self))
        case "OK":
            let id = try container.decode(NostrEventID.self)
            let accepted = try container.decode(Bool.self)
            let message = try container.decodeIfPresent(String.self) ?? ""
            self = .ok(id, accepted: accepted, message: message)
        case "EOSE": self = .endOfStoredEvents(subscription: try container.decode(String.self))
        case "CLOSED":
            let subscription = try container.decode(String.self)
            self = .closed(subscription: subscription, message: try container.decodeIfPresent(String.self) ?? "")
        case "NOTICE": self = .notice(try container.decode(String.self))
        case "AUTH": self = .auth(challenge: try container.decode(String.self))
        case "COUNT":
            let subscription = try container.decode(String.self)
            self = .count(subscription: subscription, count: try container.decode(CountBody.self).count)
        default:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown message type \(type)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .event(let subscription, let event):
            try container.encode("EVENT")
            try container.encode(subscription)
            try container.encode(event)
        case .ok(let id, let accepted, let message):
            try container.encode("OK")
            try container.encode(id)
            try container.encode(accepted)
            try container.encode(message)
        case .endOfStoredEvents(let subscription):
            try container.encode("EOSE")
            try container.encode(subscription)
        case .closed(let subscription, let message):
            try container.encode("CLOSED")
            try container.encode(subscription)
            try container.encode(message)
        case .notice(let message):
            try container.encode("NOTICE")
            try container.encode(message)
        case .auth(let challenge):
            try container.encode("AUTH")
            try container.encode(challenge)
        case .count(let subscription, let count):
            try container.encode("COUNT")
            try container.encode(subscription)
            try container.encode(CountBody(count: count))
        }
    }
}

extension NostrClientMessage {
    /// Reads one message from a WebSocket text frame.
    public init(json: String) throws {
        self = try NostrJSON.decoder.decode(NostrClientMessage.self, from: Data(json.utf8))
    }
    public var json: String { String(decoding: (try? NostrJSON.encoder.encode(self)) ?? Data(), as: UTF8.self) }
}

extension NostrRelayMessage {
    public init(json: String) throws {
        self = try NostrJSON.decoder.decode(NostrRelayMessage.self, from: Data(json.utf8))
    }
    public var json: String { String(decoding: (try? NostrJSON.encoder.encode(self)) ?? Data(), as: UTF8.self) }
}
