import Foundation
import SpotterModels

/// Notifications, their delivery jobs, and where to deliver them (the storage port's notification part).
///
/// The job queue lives here, in the database, so nothing scheduled is lost when a node restarts, and on
/// PostgreSQL several nodes drain it together without taking the same job (`FOR UPDATE SKIP LOCKED`).
public protocol NotificationStore: Sendable {
    // MARK: Preferences

    func preferences(of user: UserID) async throws -> NotificationPreferences?
    /// What deciding on a new notification for `user` needs, in one read: `nil` when there is no such
    /// person or they are suspended. `actor` is who caused it, if anyone.
    func deliveryRules(of user: UserID, from actor: UserID?, pushesSince: Date) async throws -> DeliveryRules?
    func savePreferences(_ preferences: NotificationPreferences, of user: UserID) async throws

    // MARK: Inbox

    /// Stores a notification. Returns `false` (and stores nothing) when the recipient already has one with
    /// the same `dedupeKey`: a retried request or a scheduled sweep that ran twice notifies once.
    /// With `deliveries`, the notification goes into a job per channel in the same transaction, so a
    /// notification and its jobs exist together or not at all (see `ScheduledDelivery`).
    func insert(_ notification: NotificationRecord, deliveries: [ScheduledDelivery]) async throws -> Bool
    func notification(_ id: NotificationID) async throws -> NotificationRecord?
    /// Groups of the recipient's notifications that the recipient may still see (the actor not suspended,
    /// no block either way, the post still visible), newest group first, groups older than `before` (the
    /// id of a group's newest notification).
    func groups(of recipient: UserID, before: NotificationID?, limit: Int) async throws -> [NotificationGroupRow]
    /// The notifications of one group the recipient may still see, newest first.
    func members(of recipient: UserID, groupKey: String, limit: Int) async throws -> [NotificationRecord]
    /// The group a notification is in, read at once: its count, whether any is unread, its newest `limit`
    /// visible members (newest first), the accounts of its first `actors` people, its post and, `withCounts`,
    /// the recipient's counts. `nil` when the notification is gone or archived, or none of its group is visible.
    func group(
        containing id: NotificationID, limit: Int, actors: Int, withCounts: Bool
    ) async throws -> FoundNotificationGroup?
    func counts(of recipient: UserID) async throws -> NotificationCounts
    func markSeen(of recipient: UserID, upTo: NotificationID?, at date: Date) async throws
    func markRead(of recipient: UserID, upTo: NotificationID?, groupKey: String?, at date: Date) async throws
    /// Archives a group; returns `false` when the recipient has no such group.
    func archive(of recipient: UserID, groupKey: String, at date: Date) async throws -> Bool
}

extension NotificationStore {
    public func insert(_ notification: NotificationRecord) async throws -> Bool {
        try await insert(notification, deliveries: [])
    }
}

/// A delivery job for a new notification. With a `batchKey`, it joins the recipient's pending job of that key
/// on that channel (created due at `runAt` if there is none); without, it gets a job of its own. A
/// notification is in at most one job per channel.
public struct ScheduledDelivery: Sendable, Equatable {
    public var channel: DeliveryChannel
    public var batchKey: String?
    public var runAt: Date

    public init(channel: DeliveryChannel, batchKey: String?, runAt: Date) {
        self.channel = channel
        self.batchKey = batchKey
        self.runAt = runAt
    }
}

/// A notification the `Notifier` has decided on, with its delivery jobs, for a change to store in its own
/// transaction (see `PostStore.addKudos`).
public struct PlannedNotification: Sendable, Equatable {
    public var record: NotificationRecord
    public var deliveries: [ScheduledDelivery]

    public init(record: NotificationRecord, deliveries: [ScheduledDelivery]) {
        self.record = record
        self.deliveries = deliveries
    }

    /// Whether it goes to the inbox now, and so is announced; otherwise it was stored archived.
    public var inApp: Bool { record.archivedAt == nil }
}

/// A stored notification.
public struct NotificationRecord: Sendable, Equatable {
    public var id: NotificationID
    public var recipientID: UserID
    public var type: NotificationType
    public var actorID: UserID?
    public var postID: PostID?
    public var commentID: CommentID?
    public var groupKey: String
    /// Unique per recipient when set: the same event never notifies twice.
    public var dedupeKey: String?
    /// What the type needs beyond ids: a comment's opening words, a record's lift, a summary's numbers.
    public var detail: String
    public var createdAt: Date
    public var seenAt: Date?
    public var readAt: Date?
    public var archivedAt: Date?

    public init(
        id: NotificationID, recipientID: UserID, type: NotificationType, actorID: UserID?, postID: PostID? = nil,
        commentID: CommentID? = nil, groupKey: String, dedupeKey: String? = nil, detail: String = "",
        createdAt: Date, seenAt: Date? = nil, readAt: Date? = nil, archivedAt: Date? = nil
    ) {
        self.id = id
        self.recipientID = recipientID
        self.type = type
        self.actorID = actorID
        self.postID = postID
        self.commentID = commentID
        self.groupKey = groupKey
        self.dedupeKey = dedupeKey
        self.detail = detail
        self.createdAt = createdAt
        self.seenAt = seenAt
        self.readAt = readAt
        self.archivedAt = archivedAt
    }
}

/// A group as the store reads it; the service turns it into the wire `NotificationGroup`.
public struct NotificationGroupRow: Sendable, Equatable {
    public var groupKey: String
    public var count: Int
    public var unread: Bool
    /// The group's newest notification.
    public var latest: NotificationRecord

    public init(groupKey: String, count: Int, unread: Bool, latest: NotificationRecord) {
        self.groupKey = groupKey
        self.count = count
        self.unread = unread
        self.latest = latest
    }
}

/// Where a job goes: pushes to every device and browser of the recipient, or one email.
public enum DeliveryChannel: String, Sendable, CaseIterable {
    case push
    case email
}

/// One address a job is delivered to; its `key` is what attempts record.
public enum DeliveryTarget: Sendable, Hashable {
    case apns(token: String)
    case webPush(WebPushRegistration)
    case email(address: String)

    public var key: String {
        switch self {
        case .apns(let token): "apns:\(token)"
        case .webPush(let subscription): "webpush:\(subscription.endpoint)"
        case .email(let address): "email:\(address)"
        }
    }
}

/// A due piece of delivery work: one message, covering one or more notifications, to one recipient.
public struct DeliveryJob: Sendable, Equatable {
    public var id: UUID
    public var recipientID: UserID
    public var channel: DeliveryChannel
    public var batchKey: String?
    public var notificationIDs: [NotificationID]
    public var runAt: Date
    /// Attempts made before this one.
    public var attempts: Int

    public init(
        id: UUID, recipientID: UserID, channel: DeliveryChannel, batchKey: String?, notificationIDs: [NotificationID],
        runAt: Date, attempts: Int
    ) {
        self.id = id
        self.recipientID = recipientID
        self.channel = channel
        self.batchKey = batchKey
        self.notificationIDs = notificationIDs
        self.runAt = runAt
        self.attempts = attempts
    }

    /// The batch of a silent refresh: no notifications, phones only, one pending per person however many
    /// marks asked for it. `NotificationSQL.deliveryRules` names it too, to leave it out of the hourly cap.
    public static let refreshBatchKey = "refresh"

    /// A silent push telling the person's phones to refresh (their inbox changed elsewhere).
    public var isRefresh: Bool { batchKey == Self.refreshBatchKey && notificationIDs.isEmpty }
}

/// One try at one target, kept for the record.
public struct DeliveryAttempt: Sendable, Equatable {
    public enum Status: String, Sendable {
        case delivered, gone, retry, failed
    }

    public var jobID: UUID
    public var target: String
    public var status: Status
    public var detail: String
    public var at: Date

    public init(jobID: UUID, target: String, status: Status, detail: String, at: Date) {
        self.jobID = jobID
        self.target = target
        self.status = status
        self.detail = detail
        self.at = at
    }
}

/// Everything the `Notifier` weighs about a recipient before storing a notification for them.
///
/// Read together because these were three round trips (the account, `GraphStore.mayReach`, the
/// preferences and push count) on the path of every kudos request.
public struct DeliveryRules: Sendable, Equatable {
    /// The recipient's profile time zone: quiet hours and "today" are theirs.
    public var timeZone: String
    public var preferences: NotificationPreferences?
    /// Push jobs sent to the recipient since the time asked for (the hourly cap).
    public var pushesSent: Int
    /// `GraphStore.mayReach(user, from: actor)`; `true` when nobody caused the notification.
    public var actorMayReach: Bool
    /// Whether the recipient has anywhere to push to: an iPhone or a browser subscription.
    public var hasPushTarget: Bool

    public init(
        timeZone: String, preferences: NotificationPreferences?, pushesSent: Int, actorMayReach: Bool,
        hasPushTarget: Bool
    ) {
        self.timeZone = timeZone
        self.preferences = preferences
        self.pushesSent = pushesSent
        self.actorMayReach = actorMayReach
        self.hasPushTarget = hasPushTarget
    }
}

/// A notification's inbox group with what rendering it needs, read together: the hub renders one for every
/// in-app notification, and its group, people, post and badge would otherwise be a round trip each.
public struct FoundNotificationGroup: Sendable {
    public var recipient: UserID
    public var row: NotificationGroupRow
    /// The group's newest notifications the recipient may see, newest first, at most the `limit` asked.
    public var members: [NotificationRecord]
    /// The accounts of the first `actors` distinct people behind `members` (`actorsInOrder`), in no
    /// particular order, leaving out any account that is gone.
    public var actors: [AccountRecord]
    /// The post the group's latest notification is about, if any and if it still exists.
    public var post: PostRecord?
    /// The recipient's badge as it is with this notification, when asked for.
    public var counts: NotificationCounts?

    public init(
        recipient: UserID, row: NotificationGroupRow, members: [NotificationRecord], actors: [AccountRecord],
        post: PostRecord?, counts: NotificationCounts?
    ) {
        self.recipient = recipient
        self.row = row
        self.members = members
        self.actors = actors
        self.post = post
        self.counts = counts
    }

    /// The distinct people behind `members`, newest first: whom a group names, and whose accounts it reads.
    public static func actorsInOrder(of members: [NotificationRecord]) -> [UserID] {
        var seen = Set<UserID>()
        return members.compactMap(\.actorID).filter { seen.insert($0).inserted }
    }
}
