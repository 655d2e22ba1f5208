import Foundation
import GRDB
import SpotterModels

/// What the notifications screen shows from the client database: the inbox's groups, newest first, and the
/// badge as last known (nil until the server has said).
public struct KeptInbox: Sendable, Equatable {
    public var groups: [NotificationGroup] = []
    public var counts: NotificationCounts?
}

/// The inbox kept on the device (issue 40): the groups as the server groups them, in its order (newest
/// notification first), and the badge, so the screen and the app icon show what was last known offline and at
/// a cold start. Marks and archives change the kept rows at once, with their action queued in the same
/// transaction (`ActionQueue`), as kudos do.
extension AppDatabase {
    /// Groups kept at most: an inbox is read from the top, and the rest come back with "more".
    static let keptInboxGroups = 500

    static func registerNotificationMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("notifications inbox") { db in
            // `most_recent_id` is a UUIDv7 in lower case: in text order it is in time order, the inbox's own.
            try db.execute(
                sql: """
                    CREATE TABLE inbox_groups (
                        group_key TEXT PRIMARY KEY, most_recent_id TEXT NOT NULL, json TEXT NOT NULL);
                    CREATE INDEX inbox_groups_by_recent ON inbox_groups (most_recent_id);
                    CREATE TABLE inbox_counts (
                        id INTEGER PRIMARY KEY CHECK (id = 1), unread INTEGER NOT NULL, unseen INTEGER NOT NULL);
                    """)
            try countRevisions(of: ["inbox_groups", "inbox_counts"], db)
        }
    }

    /// Keeps a page of the inbox from the network. The first page replaces what was kept: a group archived or
    /// gone elsewhere (another device, the web app) leaves with it, and older pages come back with "more".
    func saveInbox(_ groups: [NotificationGroup], firstPage: Bool) async throws {
        let rows = try groups.map { ($0, try Self.json($0)) }
        try await writer.write { db in
            if firstPage { try db.execute(sql: "DELETE FROM inbox_groups") }
            for (group, json) in rows { try Self.upsert(group, json: json, db) }
            try Self.reapplyPendingInboxActions(db)
            try Self.trimInbox(db)
        }
    }

    /// Keeps a group that arrived live (`notification` on `user:<id>`): new, or its row moved to the top.
    func saveLive(_ group: NotificationGroup) async throws {
        let json = try Self.json(group)
        try await writer.write { db in
            try Self.upsert(group, json: json, db)
            try Self.trimInbox(db)
        }
    }

    /// Keeps the badge as the server counted it.
    func saveInboxCounts(_ counts: NotificationCounts) async throws {
        try await writer.write { db in try Self.saveCounts(counts, db) }
    }

    func readInbox() async throws -> Revisioned<KeptInbox> {
        try await writer.read { db in try Revisioned.read(db, Self.inbox) }
    }

    func observeInbox() -> AsyncValueObservation<Revisioned<KeptInbox>> {
        ValueObservation.tracking { db in try Revisioned.read(db, Self.inbox) }.values(in: writer)
    }

    /// Shows a mark or an archive at once and queues it, in one transaction: the row reads as read (or is
    /// gone) on every screen, and the badge drops by what it held, until the server's counts replace it.
    func markInbox(_ action: Action, at date: Date) async throws -> QueuedAction {
        try await writer.write { db in
            try Self.applyToInbox(action, db)
            return try Self.insert(action, at: date, db)
        }
    }

    /// Applies a mark or an archive to the kept rows, and to the kept badge when `counting` (the badge the
    /// server sends afterwards replaces the estimate).
    static func applyToInbox(_ action: Action, counting: Bool = true, _ db: Database) throws {
        let kept = try inbox(db)
        var unread = kept.counts?.unread ?? 0
        var unseen = kept.counts?.unseen ?? 0
        func read(_ group: NotificationGroup) throws {
            guard group.unread else { return }
            var group = group
            group.unread = false
            try upsert(group, json: try json(group), db)
            unread = max(0, unread - group.notificationsCount)
        }
        switch action {
        case .markNotificationsSeen(let upTo):
            unseen = upTo.map { id in kept.groups.filter { $0.isNewer(than: id) && $0.unread }.count } ?? 0
            unseen = min(unseen, kept.counts?.unseen ?? 0)
        case .markNotificationsRead(let upTo):
            for group in kept.groups where upTo.map({ !group.isNewer(than: $0) }) ?? true { try read(group) }
            if upTo == nil { (unread, unseen) = (0, 0) }
        case .markNotificationGroupRead(let key):
            if let group = kept.groups.first(where: { $0.groupKey == key }) { try read(group) }
        case .archiveNotificationGroup(let key):
            if let group = kept.groups.first(where: { $0.groupKey == key }) {
                try read(group)
                try db.execute(sql: "DELETE FROM inbox_groups WHERE group_key = ?", arguments: [key])
            }
        default:
            return
        }
        guard counting, kept.counts != nil else { return }
        try saveCounts(NotificationCounts(unread: unread, unseen: min(unseen, unread)), db)
    }

    /// Marks and archives still in the outbox, applied again to rows just read from the network, which the
    /// server sent before it had them: what the person did stays shown until it lands.
    private static func reapplyPendingInboxActions(_ db: Database) throws {
        let pending = try String.fetchAll(
            db, sql: "SELECT action FROM actions WHERE entity = ? AND failure IS NULL ORDER BY id",
            arguments: [Action.inboxEntity])
        for json in pending { try applyToInbox(try decode(Action.self, json), counting: false, db) }
    }

    private static func inbox(_ db: Database) throws -> KeptInbox {
        let groups = try String.fetchAll(db, sql: "SELECT json FROM inbox_groups ORDER BY most_recent_id DESC")
            .map { try decode(NotificationGroup.self, $0) }
        let counts = try Row.fetchOne(db, sql: "SELECT unread, unseen FROM inbox_counts WHERE id = 1").map {
            NotificationCounts(unread: $0["unread"], unseen: $0["unseen"])
        }
        return KeptInbox(groups: groups, counts: counts)
    }

    private static func upsert(_ group: NotificationGroup, json: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO inbox_groups (group_key, most_recent_id, json) VALUES (?, ?, ?)
                ON CONFLICT (group_key) DO UPDATE SET most_recent_id = excluded.most_recent_id, json = excluded.json
                """,
            arguments: [group.groupKey, group.mostRecentNotificationID.description, json])
    }

    private static func saveCounts(_ counts: NotificationCounts, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO inbox_counts (id, unread, unseen) VALUES (1, ?, ?)
                ON CONFLICT (id) DO UPDATE SET unread = excluded.unread, unseen = excluded.unseen
                """,
            arguments: [counts.unread, counts.unseen])
    }

    /// The oldest groups past `keptInboxGroups` go: the kept inbox stays bounded however long the app is used.
    private static func trimInbox(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM inbox_groups WHERE group_key NOT IN (
                    SELECT group_key FROM inbox_groups ORDER BY most_recent_id DESC LIMIT ?)
                """,
            arguments: [keptInboxGroups])
    }

}

extension NotificationGroup {
    /// Whether the group's newest notification came after `id` (UUIDv7s: their text order is their time order).
    func isNewer(than id: NotificationID) -> Bool { mostRecentNotificationID.description > id.description }
}
