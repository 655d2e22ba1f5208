import Foundation

/// What the server pushes on a realtime topic, one case per event the protocol has (docs/realtime.md lists
/// them, and the web app's script handles the same names and payloads).
///
/// The server builds its frames from this enum and SpotterKit reads them back into it, so a payload's shape
/// is written once. Its `Codable` is by hand: the event's name travels beside the payload in the Phoenix
/// frame, not inside it (see `PushFrame`).
///
/// ```swift
/// let frame = try WireJSON.decoder().decode(PushFrame.self, from: text)
/// if case .likesUpdated(let likes) = frame.push { show(likes.likesCount, on: likes.id) }
/// ```
public enum RealtimePush: Sendable, Equatable {
    /// A post new to the topic (`community:feed`, `feed:<id>`).
    case newPost(Post)
    /// An edited post.
    case postUpdated(Post)
    /// A deleted post, by id.
    case postDeleted(PostID)
    /// A post's kudos count and first givers.
    case likesUpdated(LikesUpdate)
    /// A post's comment count.
    case commentsUpdated(CommentsUpdate)
    /// A notification group, as the inbox lists it (`user:<id>`).
    case notification(NotificationGroup)
    /// The badge (`user:<id>`).
    case unreadCount(NotificationCounts)
    /// Who is online, right after a join of `community:feed`.
    case presenceState(Presences)
    /// Who came and went since.
    case presenceDiff(PresenceDiff)

    /// The event's name on the wire.
    public var event: String {
        switch self {
        case .newPost: "new_post"
        case .postUpdated: "post_updated"
        case .postDeleted: "post_deleted"
        case .likesUpdated: "post_likes_updated"
        case .commentsUpdated: "post_comments_updated"
        case .notification: "notification"
        case .unreadCount: "unread_count"
        case .presenceState: "presence_state"
        case .presenceDiff: "presence_diff"
        }
    }

    /// Every event name a push can have.
    public static let events: Set<String> = [
        "new_post", "post_updated", "post_deleted", "post_likes_updated", "post_comments_updated", "notification",
        "unread_count", "presence_state", "presence_diff",
    ]

    func encodePayload(into container: inout any UnkeyedEncodingContainer) throws {
        switch self {
        case .newPost(let post), .postUpdated(let post): try container.encode(post)
        case .postDeleted(let id): try container.encode(PostRef(id: id))
        case .likesUpdated(let likes): try container.encode(likes)
        case .commentsUpdated(let comments): try container.encode(comments)
        case .notification(let group): try container.encode(group)
        case .unreadCount(let counts): try container.encode(counts)
        case .presenceState(let presences): try container.encode(presences)
        case .presenceDiff(let diff): try container.encode(diff)
        }
    }

    init(event: String, payload container: inout any UnkeyedDecodingContainer) throws {
        switch event {
        case "new_post": self = .newPost(try container.decode(Post.self))
        case "post_updated": self = .postUpdated(try container.decode(Post.self))
        case "post_deleted": self = .postDeleted(try container.decode(PostRef.self).id)
        case "post_likes_updated": self = .likesUpdated(try container.decode(LikesUpdate.self))
        case "post_comments_updated": self = .commentsUpdated(try container.decode(CommentsUpdate.self))
        case "notification": self = .notification(try container.decode(NotificationGroup.self))
        case "unread_count": self = .unreadCount(try container.decode(NotificationCounts.self))
        case "presence_state": self = .presenceState(try container.decode(Presences.self))
        case "presence_diff": self = .presenceDiff(try container.decode(PresenceDiff.self))
        default:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(event) is not an event this version knows")
        }
    }

    private struct PostRef: Codable {
        var id: PostID
    }
}

/// A push as a Phoenix v2 frame: `[null, null, topic, event, payload]`.
public struct PushFrame: Codable, Sendable, Equatable {
    public var topic: RealtimeTopic
    public var push: RealtimePush

    public init(topic: RealtimeTopic, push: RealtimePush) {
        self.topic = topic
        self.push = push
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encodeNil()
        try container.encodeNil()
        try container.encode(topic.description)
        try container.encode(push.event)
        try push.encodePayload(into: &container)
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        _ = try container.decodeNil()
        _ = try container.decodeNil()
        let name = try container.decode(String.self)
        guard let topic = RealtimeTopic(name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(name) is not a topic")
        }
        self.topic = topic
        push = try RealtimePush(event: try container.decode(String.self), payload: &container)
    }
}

/// `post_likes_updated`'s payload.
public struct LikesUpdate: Codable, Sendable, Equatable {
    public var id: PostID
    public var likesCount: Int
    /// The first givers, as the post's kudos preview shows them.
    public var likedByUserIDs: [UserID]

    public init(id: PostID, likesCount: Int, likedByUserIDs: [UserID]) {
        self.id = id
        self.likesCount = likesCount
        self.likedByUserIDs = likedByUserIDs
    }

    enum CodingKeys: String, CodingKey {
        case id
        case likesCount = "likes_count"
        case likedByUserIDs = "liked_by_user_ids"
    }
}

/// `post_comments_updated`'s payload.
public struct CommentsUpdate: Codable, Sendable, Equatable {
    public var id: PostID
    public var commentsCount: Int

    public init(id: PostID, commentsCount: Int) {
        self.id = id
        self.commentsCount = commentsCount
    }

    enum CodingKeys: String, CodingKey {
        case id
        case commentsCount = "comments_count"
    }
}

/// Presences by user id, Phoenix.Presence's shape: `{"<user id>": {"metas": [...]}}`.
public typealias Presences = [String: PresenceEntry]

/// One person's presences: a meta per socket.
public struct PresenceEntry: Codable, Sendable, Equatable {
    public var metas: [PresenceMeta]

    public init(metas: [PresenceMeta]) { self.metas = metas }
}

/// One socket's presence.
public struct PresenceMeta: Codable, Sendable, Equatable {
    /// The socket's id: clients merge presences by it.
    public var phxRef: String
    /// When the socket connected, in whole seconds since 1970.
    public var onlineAt: Int64
    public var username: String

    public init(phxRef: String, onlineAt: Int64, username: String) {
        self.phxRef = phxRef
        self.onlineAt = onlineAt
        self.username = username
    }

    enum CodingKeys: String, CodingKey {
        case phxRef = "phx_ref"
        case onlineAt = "online_at"
        case username
    }
}

/// `presence_diff`'s payload.
public struct PresenceDiff: Codable, Sendable, Equatable {
    public var joins: Presences
    public var leaves: Presences

    public init(joins: Presences, leaves: Presences) {
        self.joins = joins
        self.leaves = leaves
    }
}
