import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

struct PostgresGroupStore: GroupStore {
    let client: PostgresDatabase
    let logger: Logger

    static let columns = """
        g.id, g.name, g.description, g.avatar_url, g.time_zone, g.access, g.owner_id, g.member_count, g.created_at,
        g.encrypted
        """
    static let memberStandings = "('owner', 'admin', 'member')"
    static let invitationColumns = """
        id, group_id, invited_by, invitee_id, code_hash, expires_at, max_uses, uses, revoked_at, created_at
        """

    func create(_ group: GroupRecord) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO groups (id, name, name_folded, description, avatar_url, time_zone, access, owner_id,
                                    created_at, encrypted)
                VALUES (\(group.id.rawValue), \(group.name), \(SearchTerms.folded(group.name)), \(group.description),
                        \(group.avatarURL), \(group.timeZone), \(group.access.rawValue), \(group.ownerID.rawValue),
                        \(group.createdAt), \(group.encrypted))
                """, logger: logger)
            try await connection.query(
                Self.setStanding(.owner, of: group.ownerID, in: group.id, at: group.createdAt), logger: logger)
        }
    }

    func find(_ id: GroupID) async throws -> GroupRecord? {
        try await groups(
            "SELECT \(unescaped: Self.columns) FROM groups g WHERE g.id = \(id.rawValue) AND g.deleted_at IS NULL"
        )
        .first
    }

    func update(_ group: GroupRecord) async throws {
        try await client.query(
            """
            UPDATE groups SET name = \(group.name), name_folded = \(SearchTerms.folded(group.name)),
                description = \(group.description), avatar_url = \(group.avatarURL), time_zone = \(group.timeZone),
                access = \(group.access.rawValue)
            WHERE id = \(group.id.rawValue)
            """, logger: logger)
    }

    func delete(_ id: GroupID, at date: Date) async throws {
        try await client.withTransaction(logger: logger) { connection in
            let group = id.rawValue
            try await connection.query(
                "UPDATE groups SET deleted_at = \(date) WHERE id = \(group) AND deleted_at IS NULL", logger: logger)
            try await connection.query(
                """
                UPDATE media SET discarded_at = \(date)
                WHERE post_id IN (SELECT id FROM posts WHERE group_id = \(group) AND deleted_at IS NULL)
                  AND discarded_at IS NULL
                """, logger: logger)
            try await connection.query(
                "UPDATE posts SET deleted_at = \(date) WHERE group_id = \(group) AND deleted_at IS NULL", logger: logger
            )
            // An encrypted group's ciphertext goes for good, its posts' and their comments'.
            try await connection.query(
                "UPDATE comments SET sealed = NULL WHERE sealed IS NOT NULL AND post_id IN (SELECT id FROM posts WHERE group_id = \(group))",
                logger: logger)
            try await connection.query(
                "UPDATE posts SET sealed = NULL WHERE group_id = \(group) AND sealed IS NOT NULL", logger: logger)
            try await connection.query("DELETE FROM group_members WHERE group_id = \(group)", logger: logger)
            try await connection.query(
                "UPDATE group_invitations SET revoked_at = \(date) WHERE group_id = \(group) AND revoked_at IS NULL",
                logger: logger)
        }
    }

    func standing(of user: UserID, in group: GroupID) async throws -> GroupStanding {
        let rows = try await client.query(
            """
            SELECT standing FROM group_members WHERE group_id = \(group.rawValue) AND user_id = \(user.rawValue)
            """, logger: logger)
        for try await standing in rows.decode(String.self) { return GroupStanding(rawValue: standing) ?? .none }
        return .none
    }

    func setMember(_ user: UserID, in group: GroupID, role: GroupRole, at date: Date) async throws {
        try await client.query(
            Self.setStanding(GroupStanding(rawValue: role.rawValue) ?? .member, of: user, in: group, at: date),
            logger: logger)
    }

    /// Sets a standing; `since` moves only when someone becomes a member (a role change keeps the join date).
    private static func setStanding(
        _ standing: GroupStanding, of user: UserID, in group: GroupID, at date: Date
    ) -> PostgresQuery {
        """
        INSERT INTO group_members (group_id, user_id, standing, since)
        VALUES (\(group.rawValue), \(user.rawValue), \(standing.rawValue), \(date))
        ON CONFLICT (group_id, user_id) DO UPDATE SET standing = excluded.standing,
            since = CASE WHEN group_members.standing IN ('owner', 'admin', 'member')
                          AND excluded.standing IN ('owner', 'admin', 'member')
                         THEN group_members.since ELSE excluded.since END
        """
    }

    func removeMember(_ user: UserID, from group: GroupID) async throws -> Bool {
        let rows = try await client.query(
            """
            DELETE FROM group_members
            WHERE group_id = \(group.rawValue) AND user_id = \(user.rawValue) AND standing <> 'banned'
            RETURNING standing
            """, logger: logger)
        var wasMember = false
        for try await standing in rows.decode(String.self) {
            wasMember = GroupStanding(rawValue: standing)?.role != nil
        }
        return wasMember
    }

    func ban(_ user: UserID, from group: GroupID, at date: Date) async throws {
        try await client.query(Self.setStanding(.banned, of: user, in: group, at: date), logger: logger)
    }

    func unban(_ user: UserID, from group: GroupID) async throws {
        try await client.query(
            """
            DELETE FROM group_members
            WHERE group_id = \(group.rawValue) AND user_id = \(user.rawValue) AND standing = 'banned'
            """, logger: logger)
    }

    func transfer(_ group: GroupID, to newOwner: UserID) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "UPDATE group_members SET standing = 'admin' WHERE group_id = \(group.rawValue) AND standing = 'owner'",
                logger: logger)
            try await connection.query(
                """
                UPDATE group_members SET standing = 'owner'
                WHERE group_id = \(group.rawValue) AND user_id = \(newOwner.rawValue)
                """, logger: logger)
            try await connection.query(
                "UPDATE groups SET owner_id = \(newOwner.rawValue) WHERE id = \(group.rawValue)", logger: logger)
        }
    }

    func addRequest(_ user: UserID, to group: GroupID, at date: Date) async throws {
        try await client.query(
            """
            INSERT INTO group_members (group_id, user_id, standing, since)
            VALUES (\(group.rawValue), \(user.rawValue), 'requested', \(date))
            ON CONFLICT (group_id, user_id) DO NOTHING
            """, logger: logger)
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
        let rows = try await client.query(
            """
            SELECT \(unescaped: PostgresAccountStore.columns), m.since FROM group_members m
            JOIN users ON users.id = m.user_id
            WHERE m.group_id = \(group.rawValue) AND m.standing = \(standing)
              AND (\(withSuspended) OR users.suspended_at IS NULL)
            ORDER BY m.since, users.id
            """, logger: logger)
        var result: [(account: AccountRecord, at: Date)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            result.append((try PostgresAccountStore.record(r, offset: 0), try r[15].decode(Date.self)))
        }
        return result
    }

    func members(
        of group: GroupID, viewer: UserID?, after: UserID?, limit: Int
    ) async throws -> [(account: AccountRecord, role: GroupRole, joinedAt: Date)] {
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        var clauses = [
            "m.group_id = \(try builder.bind(group.rawValue))", "m.standing IN \(Self.memberStandings)",
            PostgresPostSQL.listable("users"),
        ]
        if let after { clauses.append("users.id > \(try builder.bind(after.rawValue))") }
        let sql = """
            SELECT \(PostgresAccountStore.columns), m.standing, m.since FROM group_members m
            JOIN users ON users.id = m.user_id
            WHERE \(clauses.joined(separator: " AND "))
            ORDER BY users.id LIMIT \(try builder.bind(limit))
            """
        var result: [(account: AccountRecord, role: GroupRole, joinedAt: Date)] = []
        for try await row in try await client.query(builder.query(sql), logger: logger) {
            let r = row.makeRandomAccess()
            guard let role = GroupRole(rawValue: try r[15].decode(String.self)) else { continue }
            result.append((try PostgresAccountStore.record(r, offset: 0), role, try r[16].decode(Date.self)))
        }
        return result
    }

    func memberRoles(of group: GroupID) async throws -> [UserID: GroupRole] {
        let rows = try await client.query(
            """
            SELECT user_id, standing FROM group_members
            WHERE group_id = \(group.rawValue) AND standing IN ('owner', 'admin', 'member')
            """, logger: logger)
        var roles: [UserID: GroupRole] = [:]
        for try await (id, standing) in rows.decode((UUID, String).self) {
            if let role = GroupRole(rawValue: standing) { roles[UserID(rawValue: id)] = role }
        }
        return roles
    }

    func groups(of user: UserID) async throws -> [(group: GroupRecord, role: GroupRole)] {
        let rows = try await client.query(
            """
            SELECT \(unescaped: Self.columns), m.standing FROM group_members m JOIN groups g ON g.id = m.group_id
            WHERE m.user_id = \(user.rawValue) AND m.standing IN ('owner', 'admin', 'member') AND g.deleted_at IS NULL
            ORDER BY g.name_folded, g.id
            """, logger: logger)
        var result: [(group: GroupRecord, role: GroupRole)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            guard let group = try Self.record(r), let role = GroupRole(rawValue: try r[10].decode(String.self)) else {
                continue
            }
            result.append((group, role))
        }
        return result
    }

    func requested(by user: UserID) async throws -> [GroupRecord] {
        try await groups(
            """
            SELECT \(unescaped: Self.columns) FROM group_members m JOIN groups g ON g.id = m.group_id
            WHERE m.user_id = \(user.rawValue) AND m.standing = 'requested' AND g.deleted_at IS NULL
            ORDER BY g.name_folded, g.id
            """)
    }

    func discoverable(matching query: String, limit: Int) async throws -> [GroupRecord] {
        let folded = SearchTerms.folded(query)
        return try await groups(
            """
            SELECT \(unescaped: Self.columns) FROM groups g
            WHERE g.deleted_at IS NULL AND g.access <> 'private'
              AND (\(folded) = '' OR strpos(g.name_folded, \(folded)) > 0)
            ORDER BY g.member_count DESC, g.id LIMIT \(limit)
            """)
    }

    func markSeen(_ user: UserID, in group: GroupID, upTo post: PostID) async throws {
        try await client.query(
            """
            UPDATE group_members SET seen_up_to = \(post.rawValue)
            WHERE group_id = \(group.rawValue) AND user_id = \(user.rawValue)
              AND standing IN ('owner', 'admin', 'member')
              AND (seen_up_to IS NULL OR seen_up_to < \(post.rawValue))
            """, logger: logger)
    }

    func seenMarker(of user: UserID, in group: GroupID) async throws -> PostID? {
        let rows = try await client.query(
            """
            SELECT seen_up_to FROM group_members WHERE group_id = \(group.rawValue) AND user_id = \(user.rawValue)
            """, logger: logger)
        for try await marker in rows.decode(UUID?.self) { return marker.map(PostID.init(rawValue:)) }
        return nil
    }

    func insert(_ invitation: GroupInvitationRecord) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO group_invitations (id, group_id, invited_by, invitee_id, code_hash, expires_at, max_uses,
                                               created_at)
                VALUES (\(invitation.id.rawValue), \(invitation.groupID.rawValue), \(invitation.invitedBy.rawValue),
                        \(invitation.invitee?.rawValue), \(invitation.codeHash), \(invitation.expiresAt),
                        \(invitation.maxUses), \(invitation.createdAt))
                """, logger: logger)
            if let invitee = invitation.invitee {
                try await connection.query(
                    """
                    INSERT INTO group_members (group_id, user_id, standing, since)
                    VALUES (\(invitation.groupID.rawValue), \(invitee.rawValue), 'invited', \(invitation.createdAt))
                    ON CONFLICT (group_id, user_id) DO NOTHING
                    """, logger: logger)
            }
        }
    }

    func invitation(_ id: GroupInvitationID) async throws -> GroupInvitationRecord? {
        try await invitations(
            "SELECT \(unescaped: Self.invitationColumns) FROM group_invitations WHERE id = \(id.rawValue)"
        ).first
    }

    func invitation(codeHash: String) async throws -> GroupInvitationRecord? {
        try await invitations(
            "SELECT \(unescaped: Self.invitationColumns) FROM group_invitations WHERE code_hash = \(codeHash)"
        ).first
    }

    func invitations(for group: GroupID) async throws -> [GroupInvitationRecord] {
        try await invitations(
            """
            SELECT \(unescaped: Self.invitationColumns) FROM group_invitations
            WHERE group_id = \(group.rawValue) ORDER BY id DESC
            """)
    }

    func invitations(to user: UserID) async throws -> [GroupInvitationRecord] {
        try await invitations(
            """
            SELECT \(unescaped: Self.invitationColumns) FROM group_invitations
            WHERE invitee_id = \(user.rawValue) AND revoked_at IS NULL ORDER BY id DESC
            """)
    }

    func use(_ invitation: GroupInvitationID) async throws -> Bool {
        let rows = try await client.query(
            """
            UPDATE group_invitations SET uses = uses + 1
            WHERE id = \(invitation.rawValue) AND (max_uses IS NULL OR uses < max_uses) RETURNING id
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func revoke(_ invitation: GroupInvitationID, at date: Date) async throws {
        try await client.query(
            """
            UPDATE group_invitations SET revoked_at = \(date) WHERE id = \(invitation.rawValue) AND revoked_at IS NULL
            """, logger: logger)
    }

    private func groups(_ query: PostgresQuery) async throws -> [GroupRecord] {
        var result: [GroupRecord] = []
        for try await row in try await client.query(query, logger: logger) {
            if let group = try Self.record(row.makeRandomAccess()) { result.append(group) }
        }
        return result
    }

    private func invitations(_ query: PostgresQuery) async throws -> [GroupInvitationRecord] {
        var result: [GroupInvitationRecord] = []
        for try await row in try await client.query(query, logger: logger) {
            let r = row.makeRandomAccess()
            result.append(
                GroupInvitationRecord(
                    id: GroupInvitationID(rawValue: try r[0].decode(UUID.self)),
                    groupID: GroupID(rawValue: try r[1].decode(UUID.self)),
                    invitedBy: UserID(rawValue: try r[2].decode(UUID.self)),
                    invitee: try r[3].decode(UUID?.self).map(UserID.init(rawValue:)),
                    codeHash: try r[4].decode(String?.self), expiresAt: try r[5].decode(Date?.self),
                    maxUses: try r[6].decode(Int?.self), uses: try r[7].decode(Int.self),
                    revokedAt: try r[8].decode(Date?.self), createdAt: try r[9].decode(Date.self)))
        }
        return result
    }

    static func record(_ r: PostgresRandomAccessRow) throws -> GroupRecord? {
        guard let access = GroupAccess(rawValue: try r[5].decode(String.self)) else { return nil }
        return GroupRecord(
            id: GroupID(rawValue: try r[0].decode(UUID.self)), name: try r[1].decode(String.self),
            description: try r[2].decode(String.self), avatarURL: try r[3].decode(String?.self),
            timeZone: try r[4].decode(String.self), access: access,
            ownerID: UserID(rawValue: try r[6].decode(UUID.self)), memberCount: try r[7].decode(Int.self),
            createdAt: try r[8].decode(Date.self), encrypted: try r[9].decode(Bool.self))
    }
}
