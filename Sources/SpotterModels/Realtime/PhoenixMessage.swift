import Foundation

/// One frame of the Phoenix Channels v2 JSON protocol: `[join_ref, ref, topic, event, payload]`.
///
/// Spotter speaks this protocol so phoenix.js and SwiftPhoenixClient connect unchanged. Broadcasts carry
/// `null` refs; replies echo the refs of the message they answer.
/// See https://hexdocs.pm/phoenix/writing_a_channels_client.html
public struct PhoenixMessage: Codable, Sendable, Equatable {
    public var joinRef: String?
    public var ref: String?
    public var topic: String
    public var event: String
    public var payload: JSONValue

    public init(joinRef: String?, ref: String?, topic: String, event: String, payload: JSONValue) {
        self.joinRef = joinRef
        self.ref = ref
        self.topic = topic
        self.event = event
        self.payload = payload
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        joinRef = try container.decodeIfPresent(String.self)
        ref = try container.decodeIfPresent(String.self)
        topic = try container.decode(String.self)
        event = try container.decode(String.self)
        payload = try container.decode(JSONValue.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: "a Phoenix frame has exactly 5 elements"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        if let joinRef { try container.encode(joinRef) } else { try container.encodeNil() }
        if let ref { try container.encode(ref) } else { try container.encodeNil() }
        try container.encode(topic)
        try container.encode(event)
        try container.encode(payload)
    }

    /// The protocol's own event names.
    public enum Event {
        public static let join = "phx_join"
        public static let leave = "phx_leave"
        public static let reply = "phx_reply"
        public static let error = "phx_error"
        public static let close = "phx_close"
        public static let heartbeat = "heartbeat"
    }

    /// A reply to this message: `{"status": "ok"|"error", "response": …}` with the same refs.
    public func reply(ok: Bool, response: JSONValue = .object([:])) -> PhoenixMessage {
        PhoenixMessage(
            joinRef: joinRef, ref: ref, topic: topic, event: Event.reply,
            payload: .object(["status": .string(ok ? "ok" : "error"), "response": response]))
    }

    /// A broadcast on a topic (no refs).
    public static func broadcast(topic: String, event: String, payload: JSONValue) -> PhoenixMessage {
        PhoenixMessage(joinRef: nil, ref: nil, topic: topic, event: event, payload: payload)
    }
}

/// The topics a Spotter socket can join.
public enum RealtimeTopic: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Every public post, and presence of who is online.
    case communityFeed
    /// A user's Following feed: only that user.
    case followingFeed(UserID)
    /// A user's notifications and badge: only that user.
    case user(UserID)
    /// A post's counts and comments: anyone who may see the post.
    case post(PostID)
    /// A group's new posts, counts and deletions: anyone who may read the group's posts.
    case group(GroupID)

    public init?(_ topic: String) {
        let parts = topic.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("community", 2) where parts[1] == "feed": self = .communityFeed
        case ("feed", 2): guard let id = UserID(parts[1]) else { return nil }; self = .followingFeed(id)
        case ("user", 2): guard let id = UserID(parts[1]) else { return nil }; self = .user(id)
        case ("post", 2): guard let id = PostID(parts[1]) else { return nil }; self = .post(id)
        case ("group", 2): guard let id = GroupID(parts[1]) else { return nil }; self = .group(id)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .communityFeed: "community:feed"
        case .followingFeed(let id): "feed:\(id)"
        case .user(let id): "user:\(id)"
        case .post(let id): "post:\(id)"
        case .group(let id): "group:\(id)"
        }
    }
}
