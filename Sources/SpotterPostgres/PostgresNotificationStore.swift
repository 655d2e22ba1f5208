import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// Notifications on PostgreSQL: the inbox and preferences. Push addresses are `PostgresPushAddressStore`'s,
/// and the job queue, shared by every node, `PostgresDeliveryQueue`'s.
struct PostgresNotificationStore: NotificationStore {
    let database: PostgresDatabase
    let logger: Logger

    /// A notification (alias `n`) its recipient (bind `$1`) may still see; the SQLite twin states the rule.
    static let visible: SQLText = """
        n.archived_at IS NULL
        AND (n.actor_id IS NULL OR EXISTS (SELECT 1 FROM users a WHERE a.id = n.actor_id
             AND \(PostSQL.listable("a"))
             AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = \(bind: SQLText.viewer, as: "uuid") \
        AND m.muted_id = a.id)))
        AND (n.post_id IS NULL OR EXISTS (SELECT 1 FROM posts p JOIN users u ON u.id = p.author_id
             WHERE p.id = n.post_id AND \(PostSQL.visible)))
        """

    private static let groupMembers = SQLStatement(NotificationSQL.members(visible: visible))
    private static let groupSize = SQLStatement(NotificationSQL.groupCount(visible: visible))
    private static let unreadCounts = SQLStatement(NotificationSQL.counts(visible: visible))
    /// The visibility rule as the groups' page writes it, around binds it numbers from `$2`.
    private static let visibleText = visible.rendered(.postgres).text

    typealias Row = (UUID, UUID, String, UUID?, UUID?, UUID?, String, String?, String, Date, Date?, Date?, Date?)

    static func record(_ r: Row) -> NotificationRecord {
        NotificationRecord(
            id: NotificationID(rawValue: r.0), recipientID: UserID(rawValue: r.1),
            type: NotificationType(rawValue: r.2) ?? .follow, actorID: r.3.map(UserID.init(rawValue:)),
            postID: r.4.map(PostID.init(rawValue:)), commentID: r.5.map(CommentID.init(rawValue:)), groupKey: r.6,
            dedupeKey: r.7, detail: r.8, createdAt: r.9, seenAt: r.10, readAt: r.11, archivedAt: r.12)
    }

    func records(_ query: PostgresQuery) async throws -> [NotificationRecord] {
        var records: [NotificationRecord] = []
        for try await row in try await database.query(query, logger: logger).decode(Row.self) {
            records.append(Self.record(row))
        }
        return records
    }

    func changed(_ query: PostgresQuery) async throws -> Bool {
        try await database.changed(query, logger: logger)
    }

    // MARK: Preferences

    func deliveryRules(of user: UserID, from actor: UserID?, pushesSince: Date) async throws -> DeliveryRules? {
        let rows = try await database.query(
            PostgresQuery(
                NotificationSQL.deliveryRules.postgres,
                [
                    "user": PostgresBind(user.rawValue), "actor": PostgresBind(actor?.rawValue),
                    "channel": PostgresBind(DeliveryChannel.push.rawValue), "since": PostgresBind(pushesSince),
                ]), logger: logger)
        for try await (timeZone, text, sent, reaches, pushable) in rows.decode((String, String?, Int, Bool, Bool).self)
        {
            return DeliveryRules(
                timeZone: timeZone,
                preferences: text.flatMap { StoredJSON.decode(NotificationPreferences.self, from: $0) },
                pushesSent: sent, actorMayReach: reaches, hasPushTarget: pushable)
        }
        return nil
    }

    func preferences(of user: UserID) async throws -> NotificationPreferences? {
        let rows = try await database.query(
            PostgresQuery(NotificationSQL.preferences.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger)
        for try await text in rows.decode(String.self) {
            return StoredJSON.decode(NotificationPreferences.self, from: text)
        }
        return nil
    }

    func savePreferences(_ preferences: NotificationPreferences, of user: UserID) async throws {
        try await database.query(
            PostgresQuery(
                NotificationSQL.savePreferences.postgres,
                ["user": PostgresBind(user.rawValue), "preferences": PostgresBind(StoredJSON.encode(preferences))]),
            logger: logger)
    }

    // MARK: Inbox

    func insert(_ n: NotificationRecord, deliveries: [ScheduledDelivery]) async throws -> Bool {
        try await database.withTransaction(logger: logger) { connection in
            try await Self.insert(n, deliveries: deliveries, on: connection, logger: logger)
        }
    }

    /// `insert` inside a transaction that is already open (a kudos stores its notification with it).
    static func insert(
        _ n: NotificationRecord, deliveries: [ScheduledDelivery], on connection: PostgresSession, logger: Logger
    ) async throws -> Bool {
        var inserted = false
        for try await _ in try await connection.query(
            PostgresQuery(
                NotificationSQL.insert.postgres,
                [
                    "id": PostgresBind(n.id.rawValue), "recipient": PostgresBind(n.recipientID.rawValue),
                    "type": PostgresBind(n.type.rawValue), "actor": PostgresBind(n.actorID?.rawValue),
                    "post": PostgresBind(n.postID?.rawValue), "comment": PostgresBind(n.commentID?.rawValue),
                    "groupKey": PostgresBind(n.groupKey), "dedupeKey": PostgresBind(n.dedupeKey),
                    "detail": PostgresBind(n.detail), "createdAt": PostgresBind(n.createdAt),
                    "seenAt": PostgresBind(n.seenAt), "readAt": PostgresBind(n.readAt),
                    "archivedAt": PostgresBind(n.archivedAt),
                ]), logger: logger)
        {
            inserted = true
        }
        guard inserted else { return false }
        for delivery in deliveries {
            try await PostgresDeliveryQueue.schedule(
                n.id, recipient: n.recipientID, channel: delivery.channel, batchKey: delivery.batchKey,
                runAt: delivery.runAt, on: connection, logger: logger)
        }
        return true
    }

    func notification(_ id: NotificationID) async throws -> NotificationRecord? {
        try await records(PostgresQuery(NotificationSQL.byID.postgres, ["id": PostgresBind(id.rawValue)])).first
    }

    func groups(of recipient: UserID, before: NotificationID?, limit: Int) async throws -> [NotificationGroupRow] {
        var builder = PostgresPostSQL.Builder(viewer: recipient.rawValue)
        // UUIDs have no MAX in PostgreSQL 15; their lowercase text sorts the same way.
        let having = try before.map { "HAVING MAX(n.id::text)::uuid < \(try builder.bind($0.rawValue))" } ?? ""
        let sql = """
            SELECT n.group_key, COUNT(*)::BIGINT, bool_or(n.read_at IS NULL), MAX(n.id::text)::uuid
            FROM notifications n WHERE n.recipient_id = $1 AND \(Self.visibleText)
            GROUP BY n.group_key \(having)
            ORDER BY 4 DESC LIMIT \(try builder.bind(limit))
            """
        var groups: [NotificationGroupRow] = []
        for try await (key, count, unread, latestID) in try await database.query(builder.query(sql), logger: logger)
            .decode((String, Int, Bool, UUID).self)
        {
            if let latest = try await notification(NotificationID(rawValue: latestID)) {
                groups.append(NotificationGroupRow(groupKey: key, count: count, unread: unread, latest: latest))
            }
        }
        return groups
    }

    func members(of recipient: UserID, groupKey: String, limit: Int) async throws -> [NotificationRecord] {
        try await records(
            PostgresQuery(
                Self.groupMembers.postgres,
                [
                    SQLText.viewer: PostgresBind(recipient.rawValue), "group": PostgresBind(groupKey),
                    "limit": PostgresBind(limit),
                ]))
    }

    func group(
        containing id: NotificationID, limit: Int, actors: Int, withCounts: Bool
    ) async throws -> FoundNotificationGroup? {
        // In turn, not in one statement: the visibility rule binds the recipient, whom only the first query
        // learns. (The round trips are the ones the hub made before, in one place.)
        guard let record = try await notification(id), record.archivedAt == nil else { return nil }
        let members = try await members(of: record.recipientID, groupKey: record.groupKey, limit: limit)
        guard let latest = members.first else { return nil }
        let (count, unread) = try await groupCount(of: record.recipientID, groupKey: record.groupKey)
        let people = FoundNotificationGroup.actorsInOrder(of: members).prefix(actors)
        var post: PostRecord?
        if let postID = latest.postID {
            post = try await PostgresPostStore(database: database, logger: logger).record(postID)
        }
        return FoundNotificationGroup(
            recipient: record.recipientID,
            row: NotificationGroupRow(groupKey: record.groupKey, count: count, unread: unread, latest: latest),
            members: members,
            actors: try await PostgresAccountStore(database: database, logger: logger).find(ids: Array(people)),
            post: post, counts: withCounts ? try await counts(of: record.recipientID) : nil)
    }

    func groupCount(of recipient: UserID, groupKey: String) async throws -> (count: Int, unread: Bool) {
        let query = try PostgresQuery(
            Self.groupSize.postgres,
            [SQLText.viewer: PostgresBind(recipient.rawValue), "group": PostgresBind(groupKey)])
        for try await (count, unread) in try await database.query(query, logger: logger).decode((Int, Bool).self) {
            return (count, unread)
        }
        return (0, false)
    }

    func counts(of recipient: UserID) async throws -> NotificationCounts {
        let query = try PostgresQuery(
            Self.unreadCounts.postgres,
            [SQLText.viewer: PostgresBind(recipient.rawValue), "limit": PostgresBind(NotificationCounts.limit)])
        for try await (unread, unseen) in try await database.query(query, logger: logger).decode((Int, Int).self) {
            return NotificationCounts(unread: unread, unseen: unseen)
        }
        return NotificationCounts(unread: 0, unseen: 0)
    }

    func markSeen(of recipient: UserID, upTo: NotificationID?, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                NotificationSQL.markSeen.postgres,
                [
                    "at": PostgresBind(date), "recipient": PostgresBind(recipient.rawValue),
                    "upTo": PostgresBind(upTo?.rawValue),
                ]), logger: logger)
    }

    func markRead(of recipient: UserID, upTo: NotificationID?, groupKey: String?, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                NotificationSQL.markRead.postgres,
                [
                    "at": PostgresBind(date), "recipient": PostgresBind(recipient.rawValue),
                    "upTo": PostgresBind(upTo?.rawValue), "groupKey": PostgresBind(groupKey),
                ]), logger: logger)
    }

    func archive(of recipient: UserID, groupKey: String, at date: Date) async throws -> Bool {
        try await changed(
            PostgresQuery(
                NotificationSQL.archive.postgres,
                [
                    "at": PostgresBind(date), "recipient": PostgresBind(recipient.rawValue),
                    "group": PostgresBind(groupKey),
                ]))
    }
}
