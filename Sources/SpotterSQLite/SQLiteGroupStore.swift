import Foundation
import GRDB
import SpotterCore
import SpotterModels

struct SQLiteGroupStore: GroupStore {
    let pool: SQLiteDatabase

    static let columns = """
        g.id, g.name, g.description, g.avatar_url, g.time_zone, g.access, g.owner_id, g.member_count, g.created_at,
        g.encrypted
        """
    static let memberStandings = "('owner', 'admin', 'member')"

    func create(_ group: GroupRecord) async throws {
        try await pool.write { db in
            try db.execute(
                cached: """
                    INSERT INTO groups (id, name, name_folded, description, avatar_url, time_zone, access, owner_id,
                                        created_at, encrypted)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    group.id.description, group.name, SearchTerms.folded(group.name), group.description,
                    group.avatarURL, group.timeZone, group.access.rawValue, group.ownerID.description,
                    group.createdAt.sqliteValue, group.encrypted,
                ])
            try Self.setStanding(.owner, of: group.ownerID, in: group.id, at: group.createdAt, db)
        }
    }

    func find(_ id: GroupID) async throws -> GroupRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                cached: db, sql: "SELECT \(Self.columns) FROM groups g WHERE g.id = ? AND g.deleted_at IS NULL",
                arguments: [id.description]
            ).flatMap(Self.record)
        }
    }

    func update(_ group: GroupRecord) async throws {
        try await execute(
            """
            UPDATE groups SET name = ?, name_folded = ?, description = ?, avatar_url = ?, time_zone = ?, access = ?
            WHERE id = ?
            """,
            [
                group.name, SearchTerms.folded(group.name), group.description, group.avatarURL, group.timeZone,
                group.access.rawValue, group.id.description,
            ])
    }

    func delete(_ id: GroupID, at date: Date) async throws {
        try await pool.write { db in
            let group = id.description
            try db.execute(
                cached: "UPDATE groups SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
                arguments: [date.sqliteValue, group])
            try db.execute(
                cached: """
                    UPDATE media SET discarded_at = ?
                    WHERE post_id IN (SELECT id FROM posts WHERE group_id = ? AND deleted_at IS NULL)
                      AND discarded_at IS NULL
                    """,
                arguments: [date.sqliteValue, group])
            try db.execute(
                cached: "UPDATE posts SET deleted_at = ? WHERE group_id = ? AND deleted_at IS NULL",
                arguments: [date.sqliteValue, group])
            // An encrypted group's ciphertext goes for good, its posts' and their comments'.
            try db.execute(
                cached:
                    "UPDATE comments SET sealed = NULL WHERE sealed IS NOT NULL AND post_id IN (SELECT id FROM posts WHERE group_id = ?)",
                arguments: [group])
            try db.execute(
                cached: "UPDATE posts SET sealed = NULL WHERE group_id = ? AND sealed IS NOT NULL", arguments: [group])
            try db.execute(cached: "DELETE FROM group_members WHERE group_id = ?", arguments: [group])
            try db.execute(
                cached: "UPDATE group_invitations SET revoked_at = ? WHERE group_id = ? AND revoked_at IS NULL",
                arguments: [date.sqliteValue, group])
        }
    }

    func standing(of user: UserID, in group: GroupID) async throws -> GroupStanding {
        try await pool.read { db in
            try String.fetchOne(
                cached: db, sql: "SELECT standing FROM group_members WHERE group_id = ? AND user_id = ?",
                arguments: [group.description, user.description]
            ).flatMap(GroupStanding.init(rawValue:)) ?? GroupStanding.none
        }
    }

    func setMember(_ user: UserID, in group: GroupID, role: GroupRole, at date: Date) async throws {
        try await pool.write { db in
            try Self.setStanding(GroupStanding(rawValue: role.rawValue) ?? .member, of: user, in: group, at: date, db)
        }
    }

    /// Sets a standing; `since` moves only when someone becomes a member (their join date stays when their
    /// role changes).
    private static func setStanding(
        _ standing: GroupStanding, of user: UserID, in group: GroupID, at date: Date, _ db: Database
    ) throws {
        try db.execute(
            cached: """
                INSERT INTO group_members (group_id, user_id, standing, since) VALUES (?, ?, ?, ?)
                ON CONFLICT (group_id, user_id) DO UPDATE SET standing = excluded.standing,
                    since = CASE WHEN group_members.standing IN \(memberStandings)
                                  AND excluded.standing IN \(memberStandings)
                                 THEN group_members.since ELSE excluded.since END
                """,
            arguments: [group.description, user.description, standing.rawValue, date.sqliteValue])
    }

    func removeMember(_ user: UserID, from group: GroupID) async throws -> Bool {
        try await pool.write { db in
            let wasMember =
                try String.fetchOne(
                    cached: db, sql: "SELECT standing FROM group_members WHERE group_id = ? AND user_id = ?",
                    arguments: [group.description, user.description]
                ).flatMap(GroupStanding.init(rawValue:))?.role != nil
            try db.execute(
                cached: "DELETE FROM group_members WHERE group_id = ? AND user_id = ? AND standing <> 'banned'",
                arguments: [group.description, user.description])
            return wasMember
        }
    }

    func ban(_ user: UserID, from group: GroupID, at date: Date) async throws {
        try await pool.write { db in try Self.setStanding(.banned, of: user, in: group, at: date, db) }
    }

    func unban(_ user: UserID, from group: GroupID) async throws {
        try await execute(
            "DELETE FROM group_members WHERE group_id = ? AND user_id = ? AND standing = 'banned'",
            [group.description, user.description])
    }

    func transfer(_ group: GroupID, to newOwner: UserID) async throws {
        try await pool.write { db in
            try db.execute(
                cached: "UPDATE group_members SET standing = 'admin' WHERE group_id = ? AND standing = 'owner'",
                arguments: [group.description])
            try db.execute(
                cached: "UPDATE group_members SET standing = 'owner' WHERE group_id = ? AND user_id = ?",
                arguments: [group.description, newOwner.description])
            try db.execute(
                cached: "UPDATE groups SET owner_id = ? WHERE id = ?",
                arguments: [newOwner.description, group.description])
        }
    }

    func addRequest(_ user: UserID, to group: GroupID, at date: Date) async throws {
        try await execute(
            """
            INSERT INTO group_members (group_id, user_id, standing, since) VALUES (?, ?, 'requested', ?)
            ON CONFLICT (group_id, user_id) DO NOTHING
            """,
            [group.description, user.description, date.sqliteValue])
    }

    func requests(for group: GroupID) async throws -> [(account: AccountRecord, at: Date)] {
        try await people(in: group, standing: "requested", withSuspended: false)
    }

    func bans(for group: GroupID) async throws -> [(account: AccountRecord, at: Date)] {
        try await people(in: group, standing: "banned", withSuspended: true)
    }

    private func people(
        in group: GroupID, standing: String, withSuspended: Bool
    ) async throws -> [(account: AccountRecord, at: Date)] {
        try await pool.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(SQLiteAccountStore.columns), m.since FROM group_members m
                    JOIN users ON users.id = m.user_id
                    WHERE m.group_id = ? AND m.standing = ? AND (? OR users.suspended_at IS NULL)
                    ORDER BY m.since, users.id
                    """,
                arguments: [group.description, standing, withSuspended]
            ).compactMap { row in
                SQLiteAccountStore.record(row).map { ($0, Date(sqliteValue: row[15])) }
            }
        }
    }

    func members(
        of group: GroupID, viewer: UserID?, after: UserID?, limit: Int
    ) async throws -> [(account: AccountRecord, role: GroupRole, joinedAt: Date)] {
        // Paged by account id: the order a page boundary can name. The owner and admins come first on the
        // first page only, so a page never repeats anyone.
        try await pool.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(SQLiteAccountStore.columns), m.standing, m.since FROM group_members m
                    JOIN users ON users.id = m.user_id
                    WHERE m.group_id = :group AND m.standing IN \(Self.memberStandings)
                      AND (:after IS NULL OR users.id > :after) AND \(SQLitePostSQL.listable("users"))
                    ORDER BY users.id LIMIT :limit
                    """,
                arguments: [
                    "group": group.description, "after": after?.description, "viewer": viewer?.description,
                    "limit": limit,
                ]
            ).compactMap { row in
                guard let account = SQLiteAccountStore.record(row), let role = GroupRole(rawValue: row[15]) else {
                    return nil
                }
                return (account, role, Date(sqliteValue: row[16]))
            }
        }
    }

    func memberRoles(of group: GroupID) async throws -> [UserID: GroupRole] {
        try await pool.read { db in
            var roles: [UserID: GroupRole] = [:]
            for row in try Row.fetchAll(
                cached: db,
                sql:
                    "SELECT user_id, standing FROM group_members WHERE group_id = ? AND standing IN \(Self.memberStandings)",
                arguments: [group.description])
            {
                if let id = UserID(row[0] as String), let role = GroupRole(rawValue: row[1]) { roles[id] = role }
            }
            return roles
        }
    }

    func groups(of user: UserID) async throws -> [(group: GroupRecord, role: GroupRole)] {
        try await pool.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(Self.columns), m.standing FROM group_members m JOIN groups g ON g.id = m.group_id
                    WHERE m.user_id = ? AND m.standing IN \(Self.memberStandings) AND g.deleted_at IS NULL
                    ORDER BY g.name_folded, g.id
                    """,
                arguments: [user.description]
            ).compactMap { row in
                guard let group = Self.record(row), let role = GroupRole(rawValue: row[10]) else { return nil }
                return (group, role)
            }
        }
    }

    func requested(by user: UserID) async throws -> [GroupRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(Self.columns) FROM group_members m JOIN groups g ON g.id = m.group_id
                    WHERE m.user_id = ? AND m.standing = 'requested' AND g.deleted_at IS NULL
                    ORDER BY g.name_folded, g.id
                    """,
                arguments: [user.description]
            ).compactMap(Self.record)
        }
    }

    func discoverable(matching query: String, limit: Int) async throws -> [GroupRecord] {
        let folded = SearchTerms.folded(query)
        return try await pool.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(Self.columns) FROM groups g
                    WHERE g.deleted_at IS NULL AND g.access <> 'private'
                      AND (:query = '' OR instr(g.name_folded, :query) > 0)
                    ORDER BY g.member_count DESC, g.id LIMIT :limit
                    """,
                arguments: ["query": folded, "limit": limit]
            ).compactMap(Self.record)
        }
    }

    func markSeen(_ user: UserID, in group: GroupID, upTo post: PostID) async throws {
        try await execute(
            """
            UPDATE group_members SET seen_up_to = :post
            WHERE group_id = :group AND user_id = :user AND standing IN \(Self.memberStandings)
              AND (seen_up_to IS NULL OR seen_up_to < :post)
            """,
            ["post": post.description, "group": group.description, "user": user.description])
    }

    func seenMarker(of user: UserID, in group: GroupID) async throws -> PostID? {
        try await pool.read { db in
            try String.fetchOne(
                cached: db, sql: "SELECT seen_up_to FROM group_members WHERE group_id = ? AND user_id = ?",
                arguments: [group.description, user.description]
            ).flatMap(PostID.init)
        }
    }

    func insert(_ invitation: GroupInvitationRecord) async throws {
        try await pool.write { db in
            try db.execute(
                cached: """
                    INSERT INTO group_invitations (id, group_id, invited_by, invitee_id, code_hash, expires_at, max_uses,
                                                   created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    invitation.id.description, invitation.groupID.description, invitation.invitedBy.description,
                    invitation.invitee?.description, invitation.codeHash, invitation.expiresAt?.sqliteValue,
                    invitation.maxUses, invitation.createdAt.sqliteValue,
                ])
            if let invitee = invitation.invitee {
                try db.execute(
                    cached: """
                        INSERT INTO group_members (group_id, user_id, standing, since) VALUES (?, ?, 'invited', ?)
                        ON CONFLICT (group_id, user_id) DO NOTHING
                        """,
                    arguments: [
                        invitation.groupID.description, invitee.description, invitation.createdAt.sqliteValue,
                    ])
            }
        }
    }

    static let invitationColumns = """
        id, group_id, invited_by, invitee_id, code_hash, expires_at, max_uses, uses, revoked_at, created_at
        """

    func invitation(_ id: GroupInvitationID) async throws -> GroupInvitationRecord? {
        try await invitations(where: "id = ?", [id.description]).first
    }

    func invitation(codeHash: String) async throws -> GroupInvitationRecord? {
        try await invitations(where: "code_hash = ?", [codeHash]).first
    }

    func invitations(for group: GroupID) async throws -> [GroupInvitationRecord] {
        try await invitations(where: "group_id = ? ORDER BY id DESC", [group.description])
    }

    func invitations(to user: UserID) async throws -> [GroupInvitationRecord] {
        try await invitations(where: "invitee_id = ? AND revoked_at IS NULL ORDER BY id DESC", [user.description])
    }

    private func invitations(
        where clause: String, _ arguments: StatementArguments
    ) async throws
        -> [GroupInvitationRecord]
    {
        try await pool.read { db in
            try Row.fetchAll(
                cached: db, sql: "SELECT \(Self.invitationColumns) FROM group_invitations WHERE \(clause)",
                arguments: arguments
            ).compactMap(Self.invitation)
        }
    }

    func use(_ invitation: GroupInvitationID) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                cached: """
                    UPDATE group_invitations SET uses = uses + 1
                    WHERE id = ? AND (max_uses IS NULL OR uses < max_uses)
                    """,
                arguments: [invitation.description])
            return db.changesCount > 0
        }
    }

    func revoke(_ invitation: GroupInvitationID, at date: Date) async throws {
        try await execute(
            "UPDATE group_invitations SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            [date.sqliteValue, invitation.description])
    }

    private func execute(_ sql: String, _ arguments: StatementArguments) async throws {
        try await pool.write { db in try db.execute(cached: sql, arguments: arguments) }
    }

    static func record(_ row: Row) -> GroupRecord? {
        guard let id = GroupID(row[0] as String), let access = GroupAccess(rawValue: row[5]),
            let owner = UserID(row[6] as String)
        else { return nil }
        return GroupRecord(
            id: id, name: row[1], description: row[2], avatarURL: row[3], timeZone: row[4], access: access,
            ownerID: owner, memberCount: row[7], createdAt: Date(sqliteValue: row[8]), encrypted: row[9])
    }

    static func invitation(_ row: Row) -> GroupInvitationRecord? {
        guard let id = GroupInvitationID(row[0] as String), let group = GroupID(row[1] as String),
            let by = UserID(row[2] as String)
        else { return nil }
        return GroupInvitationRecord(
            id: id, groupID: group, invitedBy: by, invitee: (row[3] as String?).flatMap(UserID.init),
            codeHash: row[4], expiresAt: (row[5] as Double?).map(Date.init(sqliteValue:)), maxUses: row[6],
            uses: row[7], revokedAt: (row[8] as Double?).map(Date.init(sqliteValue:)),
            createdAt: Date(sqliteValue: row[9]))
    }
}
