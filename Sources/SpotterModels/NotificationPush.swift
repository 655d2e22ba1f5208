import Foundation

/// What a push carries for the app beside the text it shows (issue 40): which notification it is and what it
/// is about, so that a tap opens the right screen and an action on the notification (Kudos, Approve) can be
/// carried out without asking the server first; or, for a silent push, that the app should refresh.
///
/// The server writes it into the keys beside APNs's `aps` (and the Web Push payload's `url` from the same
/// group key); SpotterKit reads it back from the `userInfo` an app is given. Ids and the actor's username
/// only, never text: what a person sees stays in the alert, which the server words for the lock screen.
///
/// ```json
/// {"aps": {"alert": {…}, "category": "SPOTTER_POST", "mutable-content": 1, "thread-id": "group-posts-…"},
///  "spotter": "alert", "type": "group_post", "group_key": "group-posts-…", "post_id": "…"}
/// ```
public struct NotificationPush: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Something to show: one notification, or a batch of one inbox row.
        case alert
        /// Nothing to show: the inbox or its counts changed elsewhere (read on another device), so the app
        /// refreshes its badge, inbox and feed in the background.
        case refresh
    }

    public var kind: Kind
    public var type: NotificationType?
    /// The inbox row it belongs to: the device's thread, and what Dismiss marks read.
    public var groupKey: String?
    public var notificationID: NotificationID?
    public var postID: PostID?
    public var commentID: CommentID?
    public var groupID: GroupID?
    /// Who did it (the follower, the one asking to join), for the route to their profile and for Approve.
    public var actorUsername: String?
    public var actorID: UserID?
    /// The unread count when it was sent, for a silent push (which may not set the badge itself).
    public var unread: Int?

    public init(
        kind: Kind = .alert, type: NotificationType? = nil, groupKey: String? = nil,
        notificationID: NotificationID? = nil, postID: PostID? = nil, commentID: CommentID? = nil,
        groupID: GroupID? = nil, actorUsername: String? = nil, actorID: UserID? = nil, unread: Int? = nil
    ) {
        self.kind = kind
        self.type = type
        self.groupKey = groupKey
        self.notificationID = notificationID
        self.postID = postID
        self.commentID = commentID
        self.groupID = groupID
        self.actorUsername = actorUsername
        self.actorID = actorID
        self.unread = unread
    }

    /// The category an alert is sent with: the actions iOS offers on it. A silent push has none.
    public var category: NotificationCategory? {
        guard kind == .alert else { return nil }
        return type.map(NotificationCategory.init) ?? .activity
    }

    /// The keys beside `aps`, all strings (what `userInfo` gives back on every platform).
    public var customData: [String: String] {
        var data = [Key.kind: kind.rawValue]
        data[Key.type] = type?.rawValue
        data[Key.groupKey] = groupKey
        data[Key.notificationID] = notificationID?.description
        data[Key.postID] = postID?.description
        data[Key.commentID] = commentID?.description
        data[Key.groupID] = groupID?.description
        data[Key.actor] = actorUsername
        data[Key.actorID] = actorID?.description
        data[Key.unread] = unread.map(String.init)
        return data
    }

    /// Reads a push back from its keys; `nil` when it is not one of Spotter's (another library's push).
    public init?(customData data: [String: String]) {
        guard let kind = data[Key.kind].flatMap(Kind.init(rawValue:)) else { return nil }
        self.init(
            kind: kind, type: data[Key.type].flatMap(NotificationType.init(rawValue:)), groupKey: data[Key.groupKey],
            notificationID: data[Key.notificationID].flatMap(NotificationID.init),
            postID: data[Key.postID].flatMap(PostID.init), commentID: data[Key.commentID].flatMap(CommentID.init),
            groupID: data[Key.groupID].flatMap(GroupID.init), actorUsername: data[Key.actor],
            actorID: data[Key.actorID].flatMap(UserID.init), unread: data[Key.unread].flatMap { Int($0) })
    }

    /// The custom keys; `spotter` marks the push as Spotter's and says its kind.
    enum Key {
        static let kind = "spotter"
        static let type = "type"
        static let groupKey = "group_key"
        static let notificationID = "notification_id"
        static let postID = "post_id"
        static let commentID = "comment_id"
        static let groupID = "group_id"
        static let actor = "actor"
        static let actorID = "actor_id"
        static let unread = "unread"
    }
}

/// The categories an app registers with `UNUserNotificationCenter.setNotificationCategories`, each with the
/// actions iOS shows under a notification of it. The identifiers are the wire's: keep them.
public enum NotificationCategory: String, Sendable, CaseIterable {
    /// Someone else's post in a group of mine: Kudos, View, Dismiss.
    case post = "SPOTTER_POST"
    /// Something about me or my posts (kudos, comments, records, followers, groups, security): View, Dismiss.
    case activity = "SPOTTER_ACTIVITY"
    /// Someone asks to follow me: Approve, Deny, View.
    case followRequest = "SPOTTER_FOLLOW_REQUEST"
    /// Someone asks to join a group I run: Approve, Deny, View.
    case groupJoinRequest = "SPOTTER_GROUP_JOIN_REQUEST"

    public init(_ type: NotificationType) {
        switch type {
        case .groupPost: self = .post
        case .followRequest: self = .followRequest
        case .groupJoinRequest: self = .groupJoinRequest
        default: self = .activity
        }
    }

    /// In the order iOS lists them.
    public var actions: [NotificationAction] {
        switch self {
        case .post: [.kudos, .view, .dismiss]
        case .activity: [.view, .dismiss]
        case .followRequest, .groupJoinRequest: [.approve, .deny, .view]
        }
    }
}

/// An action on a notification, by the identifier the app registers it with.
public enum NotificationAction: String, Sendable, CaseIterable {
    case kudos = "KUDOS"
    case view = "VIEW"
    case dismiss = "DISMISS"
    case approve = "APPROVE"
    case deny = "DENY"
}
