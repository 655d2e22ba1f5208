import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// Notifications on SQLite: the inbox and preferences. Push addresses are `SQLitePushAddressStore`'s, and the
/// job queue `SQLiteDeliveryQueue`'s.
struct SQLiteNotificationStore: NotificationStore {
    let database: SQLiteDatabase

    /// A notification (alias `n`) its recipient (`:viewer`) may still see: not archived, its actor not
    /// suspended, blocked either way or muted, its post still visible to them.
    ///
    /// The people hidden from the recipient are one small set, read once per statement rather than looked up
    /// again for every row (an actor's row always exists: deleting a person deletes their notifications). A
    /// badge count checks up to 100 rows, and with lookups per row counting was the server's largest cost
    /// under a steady stream of notifications. A notification about the recipient's own post, the usual
    /// case, stops at the post's row.
    static let visible: SQLText = """
        n.archived_at IS NULL
        AND (n.actor_id IS NULL OR n.actor_id NOT IN (
             SELECT muted_id FROM mutes WHERE muter_id = \(bind: SQLText.viewer) UNION ALL \(PostSQL.unlisted)))
        AND (n.post_id IS NULL OR EXISTS (SELECT 1 FROM posts p WHERE p.id = n.post_id AND p.deleted_at IS NULL
             AND (p.author_id = \(bind: SQLText.viewer)
                  OR EXISTS (SELECT 1 FROM users u WHERE u.id = p.author_id AND \(PostSQL.visible)))))
        """

    /// A page of groups, newest first: each group's size, whether one is unread, and its newest id.
    private static let groupPage = SQLStatement(
        """
        SELECT n.group_key, COUNT(*), MAX(n.read_at IS NULL), MAX(n.id) FROM notifications n
        WHERE n.recipient_id = \(bind: SQLText.viewer) AND \(visible)
        GROUP BY n.group_key HAVING \(bind: "before") IS NULL OR MAX(n.id) < \(bind: "before")
        ORDER BY MAX(n.id) DESC LIMIT \(bind: "limit")
        """)
    private static let groupMembers = SQLStatement(NotificationSQL.members(visible: visible))
    private static let groupSize = SQLStatement(NotificationSQL.groupCount(visible: visible))
    private static let unreadCounts = SQLStatement(NotificationSQL.counts(visible: visible))

    /// A notification row's columns (alias `n`), in `NotificationSQL.columns`'s order.
    enum Column: Int, SQLiteColumns {
        case id, recipientID, type, actorID, postID, commentID, groupKey, dedupeKey, detail, createdAt, seenAt
        case readAt, archivedAt

        var sql: String {
            switch self {
            case .id: "n.id"
            case .recipientID: "n.recipient_id"
            case .type: "n.type"
            case .actorID: "n.actor_id"
            case .postID: "n.post_id"
            case .commentID: "n.comment_id"
            case .groupKey: "n.group_key"
            case .dedupeKey: "n.dedupe_key"
            case .detail: "n.detail"
            case .createdAt: "n.created_at"
            case .seenAt: "n.seen_at"
            case .readAt: "n.read_at"
            case .archivedAt: "n.archived_at"
            }
        }
    }

    static func record(_ row: Row) -> NotificationRecord {
        NotificationRecord(
            id: NotificationID(row[Column.id.index] as String)!,
            recipientID: UserID(row[Column.recipientID.index] as String)!,
            type: NotificationType(rawValue: row[Column.type.index]) ?? .follow,
            actorID: (row[Column.actorID.index] as String?).flatMap(UserID.init),
            postID: (row[Column.postID.index] as String?).flatMap(PostID.init),
            commentID: (row[Column.commentID.index] as String?).flatMap(CommentID.init),
            groupKey: row[Column.groupKey.index],
            dedupeKey: row[Column.dedupeKey.index], detail: row[Column.detail.index],
            createdAt: Date(sqliteValue: row[Column.createdAt.index]),
            seenAt: (row[Column.seenAt.index] as Double?).map(Date.init(sqliteValue:)),
            readAt: (row[Column.readAt.index] as Double?).map(Date.init(sqliteValue:)),
            archivedAt: (row[Column.archivedAt.index] as Double?).map(Date.init(sqliteValue:)))
    }

    // MARK: Preferences

    func deliveryRules(of user: UserID, from actor: UserID?, pushesSince: Date) async throws -> DeliveryRules? {
        // On the writer: it sits between the kudos (or comment, or follow) and the notification's write.
        try await database.readOnWriter { db in
            try db.firstRow(
                cached: NotificationSQL.deliveryRules.sqlite,
                arguments: [
                    "user": user.description, "actor": actor?.description, "channel": DeliveryChannel.push.rawValue,
                    "since": pushesSince.sqliteValue,
                ]
            ) { row in
                DeliveryRules(
                    timeZone: row.text(0),
                    preferences: row.text(1).flatMap { StoredJSON.decode(NotificationPreferences.self, from: $0) },
                    pushesSent: row.integer(2), actorMayReach: row.bool(3), hasPushTarget: row.bool(4))
            }
        }
    }

    func preferences(of user: UserID) async throws -> NotificationPreferences? {
        try await database.read { db in
            try String.fetchOne(
                cached: db, sql: NotificationSQL.preferences.sqlite, arguments: ["user": user.description])
        }
        .flatMap { StoredJSON.decode(NotificationPreferences.self, from: $0) }
    }

    func savePreferences(_ preferences: NotificationPreferences, of user: UserID) async throws {
        try await database.write { db in
            try db.execute(
                cached: NotificationSQL.savePreferences.sqlite,
                arguments: ["user": user.description, "preferences": StoredJSON.encode(preferences)])
        }
    }

    // MARK: Inbox

    func insert(_ n: NotificationRecord, deliveries: [ScheduledDelivery]) async throws -> Bool {
        try await database.write { db in try Self.insert(n, deliveries: deliveries, db) }
    }

    /// `insert` inside a write that is already open (a kudos stores its notification with it).
    static func insert(_ n: NotificationRecord, deliveries: [ScheduledDelivery], _ db: Database) throws -> Bool {
        try db.execute(
            cached: NotificationSQL.insert.sqlite,
            arguments: [
                "id": n.id.description, "recipient": n.recipientID.description, "type": n.type.rawValue,
                "actor": n.actorID?.description, "post": n.postID?.description, "comment": n.commentID?.description,
                "groupKey": n.groupKey, "dedupeKey": n.dedupeKey, "detail": n.detail,
                "createdAt": n.createdAt.sqliteValue, "seenAt": n.seenAt?.sqliteValue,
                "readAt": n.readAt?.sqliteValue, "archivedAt": n.archivedAt?.sqliteValue,
            ])
        guard db.changesCount == 1 else { return false }
        for delivery in deliveries {
            try SQLiteDeliveryQueue.schedule(
                n.id, recipient: n.recipientID, channel: delivery.channel, batchKey: delivery.batchKey,
                runAt: delivery.runAt, db)
        }
        return true
    }

    func notification(_ id: NotificationID) async throws -> NotificationRecord? {
        try await database.read { db in
            try Row.fetchOne(cached: db, sql: NotificationSQL.byID.sqlite, arguments: ["id": id.description])
                .map(Self.record)
        }
    }

    func groups(of recipient: UserID, before: NotificationID?, limit: Int) async throws -> [NotificationGroupRow] {
        try await database.read { db in
            let rows = try Row.fetchAll(
                cached: db, sql: Self.groupPage.sqlite,
                arguments: ["viewer": recipient.description, "before": before?.description, "limit": limit])
            return try rows.compactMap { row in
                guard
                    let latest = try Row.fetchOne(
                        cached: db, sql: NotificationSQL.byID.sqlite, arguments: ["id": row[3]])
                else { return nil }
                return NotificationGroupRow(
                    groupKey: row[0], count: row[1], unread: (row[2] as Int) == 1, latest: Self.record(latest))
            }
        }
    }

    func members(of recipient: UserID, groupKey: String, limit: Int) async throws -> [NotificationRecord] {
        try await database.read { db in try Self.members(of: recipient, groupKey: groupKey, limit: limit, db) }
    }

    static func members(
        of recipient: UserID, groupKey: String, limit: Int, _ db: Database
    ) throws
        -> [NotificationRecord]
    {
        try Row.fetchAll(
            cached: db, sql: Self.groupMembers.sqlite,
            arguments: ["viewer": recipient.description, "group": groupKey, "limit": limit]
        ).map(Self.record)
    }

    func group(
        containing id: NotificationID, limit: Int, actors: Int, withCounts: Bool
    ) async throws -> FoundNotificationGroup? {
        // On the writer: the hub reads it just after the notification was written.
        try await database.readOnWriter { db in
            guard
                let record = try Row.fetchOne(
                    cached: db, sql: NotificationSQL.byID.sqlite, arguments: ["id": id.description]
                ).map(Self.record), record.archivedAt == nil
            else { return nil }
            let members = try Self.members(of: record.recipientID, groupKey: record.groupKey, limit: limit, db)
            guard let latest = members.first else { return nil }
            let (count, unread) = try Self.groupCount(of: record.recipientID, groupKey: record.groupKey, db)
            let people = FoundNotificationGroup.actorsInOrder(of: members).prefix(actors)
            return FoundNotificationGroup(
                recipient: record.recipientID,
                row: NotificationGroupRow(groupKey: record.groupKey, count: count, unread: unread, latest: latest),
                members: members, actors: try SQLiteAccountStore.find(ids: Array(people), db),
                post: try latest.postID.flatMap { try SQLitePostStore.record($0, db) },
                counts: withCounts ? try Self.counts(of: record.recipientID, db) : nil)
        }
    }

    static func groupCount(of recipient: UserID, groupKey: String, _ db: Database) throws -> (count: Int, unread: Bool)
    {
        let row = try Row.fetchOne(
            cached: db, sql: Self.groupSize.sqlite, arguments: ["viewer": recipient.description, "group": groupKey])
        return (row?[0] ?? 0, (row?[1] ?? 0) == 1)
    }

    func counts(of recipient: UserID) async throws -> NotificationCounts {
        try await database.read { db in try Self.counts(of: recipient, db) }
    }

    static func counts(of recipient: UserID, _ db: Database) throws -> NotificationCounts {
        let row = try Row.fetchOne(
            cached: db, sql: Self.unreadCounts.sqlite,
            arguments: ["viewer": recipient.description, "limit": NotificationCounts.limit])
        return NotificationCounts(unread: row?[0] ?? 0, unseen: row?[1] ?? 0)
    }

    func markSeen(of recipient: UserID, upTo: NotificationID?, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: NotificationSQL.markSeen.sqlite,
                arguments: ["at": date.sqliteValue, "recipient": recipient.description, "upTo": upTo?.description])
        }
    }

    func markRead(of recipient: UserID, upTo: NotificationID?, groupKey: String?, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: NotificationSQL.markRead.sqlite,
                arguments: [
                    "at": date.sqliteValue, "recipient": recipient.description, "upTo": upTo?.description,
                    "groupKey": groupKey,
                ])
        }
    }

    func archive(of recipient: UserID, groupKey: String, at date: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: NotificationSQL.archive.sqlite,
                arguments: ["at": date.sqliteValue, "recipient": recipient.description, "group": groupKey])
            return db.changesCount > 0
        }
    }
}
