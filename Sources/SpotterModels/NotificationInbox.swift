import Foundation

/// One row of the inbox: notifications of one `group_key` folded together, Mastodon-style ("Ana and 2
/// others gave kudos to your Morning Run"), newest group first.
public struct NotificationGroup: Codable, Sendable, Equatable {
    /// Stable for the group (`kudos-<post id>`, `follow-<day>`, or `<type>-<notification id>` when it stands
    /// alone); marks and archives name it.
    public var groupKey: String
    public var type: NotificationType
    public var notificationsCount: Int
    /// The latest few distinct people behind it, newest first.
    public var sampleActors: [AuthorSummary]
    public var latestAt: Date
    public var mostRecentNotificationID: NotificationID
    public var postID: PostID?
    public var commentID: CommentID?
    /// The group the notification is about (an invitation, a join request, news of a group), so a tap can
    /// open it.
    public var groupID: GroupID?
    /// The text to show: full text, since the inbox is the recipient's own.
    public var text: String
    /// Some notification in the group is unread.
    public var unread: Bool

    public init(
        groupKey: String, type: NotificationType, notificationsCount: Int, sampleActors: [AuthorSummary],
        latestAt: Date, mostRecentNotificationID: NotificationID, postID: PostID?, commentID: CommentID?,
        text: String, unread: Bool, groupID: GroupID? = nil
    ) {
        self.groupKey = groupKey
        self.type = type
        self.notificationsCount = notificationsCount
        self.sampleActors = sampleActors
        self.latestAt = latestAt
        self.mostRecentNotificationID = mostRecentNotificationID
        self.postID = postID
        self.commentID = commentID
        self.groupID = groupID
        self.text = text
        self.unread = unread
    }

    enum CodingKeys: String, CodingKey {
        case groupKey = "group_key"
        case type
        case notificationsCount = "notifications_count"
        case sampleActors = "sample_actors"
        case latestAt = "latest_at"
        case mostRecentNotificationID = "most_recent_notification_id"
        case postID = "post_id"
        case commentID = "comment_id"
        case groupID = "group_id"
        case text, unread
    }
}

/// The badge: notifications not yet read, and not yet seen (the inbox not opened since they came).
///
/// Each count stops at `limit`, which a badge shows as "99+". Counting is checking: every notification
/// counted is checked against the recipient's blocks, mutes and what they may see, and the badge is counted
/// again for every new notification, so an uncapped count grew with the inbox and was most of the work
/// behind each notification. Mastodon's unread count stops at 100 in the same way. A push's app icon badge,
/// taken from `unread`, stops there too.
public struct NotificationCounts: Codable, Sendable, Equatable {
    /// Where the counts stop.
    public static let limit = 100

    public var unread: Int
    public var unseen: Int

    public init(unread: Int, unseen: Int) {
        self.unread = unread
        self.unseen = unseen
    }

    /// How a badge writes a count: the number, or "99+" once it reaches `limit`.
    public static func badge(_ count: Int) -> String { count >= limit ? "\(limit - 1)+" : String(count) }
}

/// `POST /api/v1/notifications/seen` and `…/read`: everything up to and including `up_to`, or everything
/// when it is absent.
public struct MarkNotificationsRequest: Codable, Sendable, Equatable {
    public var upTo: NotificationID?

    public init(upTo: NotificationID? = nil) { self.upTo = upTo }

    enum CodingKeys: String, CodingKey {
        case upTo = "up_to"
    }
}

/// `POST` and `DELETE /api/v1/notifications/devices`: an APNs device token of the signed-in user's iPhone, to
/// register or to forget.
public struct DeviceRegistration: Codable, Sendable, Equatable {
    /// The token APNs gave the app, in hex.
    public var token: String

    public init(token: String) { self.token = token }
}

/// `POST /api/v1/notifications/web-push`: a browser's Push API subscription (`PushSubscription.toJSON()`).
public struct WebPushRegistration: Codable, Sendable, Hashable {
    public struct Keys: Codable, Sendable, Hashable {
        public var p256dh: String
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String
    public var keys: Keys

    public init(endpoint: String, keys: Keys) {
        self.endpoint = endpoint
        self.keys = keys
    }
}

/// `GET /api/v1/notifications/web-push/key`: the VAPID public key a browser subscribes with.
public struct WebPushKey: Codable, Sendable, Equatable {
    public var publicKey: String

    public init(publicKey: String) { self.publicKey = publicKey }

    enum CodingKeys: String, CodingKey {
        case publicKey = "public_key"
    }
}
