import Foundation
import GRDB
import SpotterModels

/// A list of groups the client keeps, in the server's order.
enum GroupList: Sendable, Hashable {
    /// The groups I belong to, by name.
    case mine
    /// What discovery found for a query (folded to lower case; empty for "any").
    case discover(String)

    var cacheKey: String {
        switch self {
        case .mine: "mine"
        case .discover(let query): "discover:\(query.lowercased())"
        }
    }
}

/// What the groups screen shows from the client database: my groups and the invitations by name waiting.
struct KeptGroups: Sendable, Equatable {
    var mine: [Group] = []
    var invitations: [GroupInvitation] = []
}

/// The cached groups (issue 28): about pages, my groups and discovery's results, and invitations by name
/// waiting for me, so the groups screen and a group's page show what was kept offline. A group's posts are a
/// feed like any other (`FeedKind.group`, in `feed_items`).
extension AppDatabase {
    static func registerGroupMigrations(_ migrator: inout DatabaseMigrator) {
        // Groups, their lists and invitations waiting for me; a change counts the revision up, as posts do, so
        // a screen can tell a fresher read from an older one.
        migrator.registerMigration("groups cache") { db in
            try db.execute(
                sql: """
                    CREATE TABLE cached_groups (id TEXT PRIMARY KEY, json TEXT NOT NULL, fetched_at REAL NOT NULL);
                    CREATE TABLE group_list_items (
                        list TEXT NOT NULL,
                        group_id TEXT NOT NULL REFERENCES cached_groups(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (list, group_id));
                    CREATE TABLE group_invitations_waiting (
                        id TEXT PRIMARY KEY, group_id TEXT NOT NULL, json TEXT NOT NULL, position INTEGER NOT NULL);
                    """)
            try countRevisions(of: ["cached_groups", "group_list_items", "group_invitations_waiting"], db)
        }
    }

    /// Keeps groups from the network as `list`, in the order given (it replaces what the list held).
    func save(_ groups: [Group], as list: GroupList, at now: Date = Date()) async throws {
        let rows = try groups.map { ($0, try Self.json($0)) }
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM group_list_items WHERE list = ?", arguments: [list.cacheKey])
            for (position, (group, json)) in rows.enumerated() {
                try Self.upsert(group, json: json, at: now, db)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO group_list_items (list, group_id, position) VALUES (?, ?, ?)",
                    arguments: [list.cacheKey, group.id.description, list == .mine ? 0 : position])
            }
        }
    }

    /// Keeps one group as the server now shows it, in my groups or out of them by its standing. A group I no
    /// longer belong to loses its invitation and, unless anyone may read it, its kept posts.
    func save(_ group: Group, at now: Date = Date()) async throws {
        let json = try Self.json(group)
        try await writer.write { db in
            try Self.upsert(group, json: json, at: now, db)
            let id = group.id.description
            if group.standing.role != nil {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO group_list_items (list, group_id, position) VALUES ('mine', ?, 0)",
                    arguments: [id])
                try db.execute(sql: "DELETE FROM group_invitations_waiting WHERE group_id = ?", arguments: [id])
            } else {
                try db.execute(
                    sql: "DELETE FROM group_list_items WHERE list = 'mine' AND group_id = ?", arguments: [id])
                if group.standing != .invited {
                    try db.execute(sql: "DELETE FROM group_invitations_waiting WHERE group_id = ?", arguments: [id])
                }
                if group.access != .open {
                    try db.execute(
                        sql: "DELETE FROM feed_items WHERE feed = ?", arguments: [FeedKind.group(group.id).cacheKey])
                }
            }
        }
    }

    /// Keeps the invitations by name waiting for me, replacing those kept.
    func save(waiting invitations: [GroupInvitation]) async throws {
        let rows = try invitations.map { ($0, try Self.json($0)) }
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM group_invitations_waiting")
            for (position, (invitation, json)) in rows.enumerated() {
                try db.execute(
                    sql: "INSERT INTO group_invitations_waiting (id, group_id, json, position) VALUES (?, ?, ?, ?)",
                    arguments: [invitation.id.description, invitation.group.id.description, json, position])
            }
        }
    }

    /// Forgets a group that no longer exists for me (deleted, or private and left), with its kept posts.
    func forget(_ id: GroupID) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM cached_groups WHERE id = ?", arguments: [id.description])
            try db.execute(sql: "DELETE FROM group_invitations_waiting WHERE group_id = ?", arguments: [id.description])
            try db.execute(sql: "DELETE FROM feed_items WHERE feed = ?", arguments: [FeedKind.group(id).cacheKey])
        }
    }

    /// Forgets a post the server deleted (a live `post_deleted`), from every feed it was in.
    func deletePost(_ id: PostID) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [id.description])
        }
    }

    // MARK: Reads

    func group(_ id: GroupID) async throws -> Group? {
        try await writer.read { db in try Self.group(id, db) }
    }

    func groups(_ list: GroupList) async throws -> [Group] {
        try await writer.read { db in try Self.groups(list, db) }
    }

    /// My groups and the invitations waiting, for a screen; with the revision they were read at.
    func observeKeptGroups() -> AsyncValueObservation<Revisioned<KeptGroups>> {
        ValueObservation.tracking { db in try Revisioned.read(db) { try Self.keptGroups($0) } }.values(in: writer)
    }

    func readKeptGroups() async throws -> Revisioned<KeptGroups> {
        try await writer.read { db in try Revisioned.read(db) { try Self.keptGroups($0) } }
    }

    // MARK: Inside a transaction

    private static func upsert(_ group: Group, json: String, at now: Date, _ db: Database) throws {
        // An upsert, not INSERT OR REPLACE: a replaced row would take its list places with it (cascade).
        try db.execute(
            sql: """
                INSERT INTO cached_groups (id, json, fetched_at) VALUES (?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at
                """, arguments: [group.id.description, json, now.timeIntervalSince1970])
    }

    static func group(_ id: GroupID, _ db: Database) throws -> Group? {
        try String.fetchOne(db, sql: "SELECT json FROM cached_groups WHERE id = ?", arguments: [id.description])
            .flatMap { try? decode(Group.self, $0) }
    }

    static func groups(_ list: GroupList, _ db: Database) throws -> [Group] {
        try String.fetchAll(
            db,
            sql: """
                SELECT g.json FROM group_list_items l JOIN cached_groups g ON g.id = l.group_id
                WHERE l.list = ? ORDER BY l.position, json_extract(g.json, '$.name') COLLATE NOCASE, g.id
                """, arguments: [list.cacheKey]
        )
        .compactMap { try? decode(Group.self, $0) }
    }

    static func keptGroups(_ db: Database) throws -> KeptGroups {
        KeptGroups(
            mine: try groups(.mine, db),
            invitations: try String.fetchAll(
                db, sql: "SELECT json FROM group_invitations_waiting ORDER BY position"
            ).compactMap { try? decode(GroupInvitation.self, $0) })
    }
}
