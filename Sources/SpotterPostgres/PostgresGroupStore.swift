import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresGroupStore: GroupStore {
    let database: PostgresDatabase
    let logger: Logger

    func create(_ group: GroupRecord) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    GroupSQL.create.postgres,
                    [
                        "id": PostgresBind(group.id.rawValue), "name": PostgresBind(group.name),
                        "folded": PostgresBind(SearchTerms.folded(group.name)),
                        "description": PostgresBind(group.description), "avatarURL": PostgresBind(group.avatarURL),
                        "timeZone": PostgresBind(group.timeZone), "access": PostgresBind(group.access.rawValue),
                        "owner": PostgresBind(group.ownerID.rawValue), "createdAt": PostgresBind(group.createdAt),
                        "encrypted": PostgresBind(group.encrypted),
                    ]), logger: logger)
            try await connection.query(
                try Self.setStanding(.owner, of: group.ownerID, in: group.id, at: group.createdAt), logger: logger)
        }
    }

    func find(_ id: GroupID) async throws -> GroupRecord? {
        try await groups(PostgresQuery(GroupSQL.find.postgres, ["group": PostgresBind(id.rawValue)])).first
    }

    func update(_ group: GroupRecord) async throws {
        try await database.query(
            PostgresQuery(
                GroupSQL.update.postgres,
                [
                    "name": PostgresBind(group.name), "folded": PostgresBind(SearchTerms.folded(group.name)),
                    "description": PostgresBind(group.description), "avatarURL": PostgresBind(group.avatarURL),
                    "timeZone": PostgresBind(group.timeZone), "access": PostgresBind(group.access.rawValue),
                    "group": PostgresBind(group.id.rawValue),
                ]), logger: logger)
    }

    func delete(_ id: GroupID, at date: Date) async throws {
        let binds = ["group": PostgresBind(id.rawValue), "at": PostgresBind(date)]
        // An encrypted group's ciphertext goes for good, its posts' and their comments'.
        let statements = try GroupSQL.delete.map { statement in
            try PostgresQuery(statement.postgres, binds.filter { statement.postgres.binds.contains($0.key) })
        }
        try await database.withTransaction(logger: logger) { connection in
            for statement in statements { try await connection.query(statement, logger: logger) }
        }
    }

    func standing(of user: UserID, in group: GroupID) async throws -> GroupStanding {
        let rows = try await database.query(
            PostgresQuery(
                GroupSQL.standing.postgres,
                ["group": PostgresBind(group.rawValue), "user": PostgresBind(user.rawValue)]),
            logger: logger)
        for try await standing in rows.decode(String.self) { return GroupStanding(rawValue: standing) ?? .none }
        return .none
    }

    func setMember(_ user: UserID, in group: GroupID, role: GroupRole, at date: Date) async throws {
        try await database.query(
            try Self.setStanding(GroupStanding(rawValue: role.rawValue) ?? .member, of: user, in: group, at: date),
            logger: logger)
    }

    /// Sets a standing; `since` moves only when someone becomes a member (a role change keeps the join date).
    private static func setStanding(
        _ standing: GroupStanding, of user: UserID, in group: GroupID, at date: Date
    ) throws -> PostgresQuery {
        try PostgresQuery(
            GroupSQL.setStanding.postgres,
            [
                "group": PostgresBind(group.rawValue), "user": PostgresBind(user.rawValue),
                "standing": PostgresBind(standing.rawValue), "at": PostgresBind(date),
            ])
    }

    func removeMember(_ user: UserID, from group: GroupID) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(
                GroupSQL.removeMember.postgres,
                ["group": PostgresBind(group.rawValue), "user": PostgresBind(user.rawValue)]),
            logger: logger)
        var wasMember = false
        for try await standing in rows.decode(String.self) {
            wasMember = GroupStanding(rawValue: standing)?.role != nil
        }
        return wasMember
    }

    func ban(_ user: UserID, from group: GroupID, at date: Date) async throws {
        try await database.query(try Self.setStanding(.banned, of: user, in: group, at: date), logger: logger)
    }

    func unban(_ user: UserID, from group: GroupID) async throws {
        try await database.query(
            PostgresQuery(
                GroupSQL.unban.postgres, ["group": PostgresBind(group.rawValue), "user": PostgresBind(user.rawValue)]),
            logger: logger)
    }

    func transfer(_ group: GroupID, to newOwner: UserID) async throws {
        let binds = ["group": PostgresBind(group.rawValue), "user": PostgresBind(newOwner.rawValue)]
        let statements = try GroupSQL.transfer.map { statement in
            try PostgresQuery(statement.postgres, binds.filter { statement.postgres.binds.contains($0.key) })
        }
        try await database.withTransaction(logger: logger) { connection in
            for statement in statements { try await connection.query(statement, logger: logger) }
        }
    }

    func addRequest(_ user: UserID, to group: GroupID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                GroupSQL.addStanding.postgres,
                [
                    "group": PostgresBind(group.rawValue), "user": PostgresBind(user.rawValue),
                    "standing": PostgresBind(GroupStanding.requested.rawValue), "at": PostgresBind(date),
                ]), logger: logger)
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
        let rows = try await database.query(
            PostgresQuery(
                GroupSQL.people.postgres,
                [
                    "group": PostgresBind(group.rawValue), "standing": PostgresBind(standing),
                    "withSuspended": PostgresBind(withSuspended),
                ]), logger: logger)
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
        var binds = [
            "viewer": PostgresBind(viewer?.rawValue), "group": PostgresBind(group.rawValue),
            "limit": PostgresBind(limit),
        ]
        if let after { binds["after"] = PostgresBind(after.rawValue) }
        let query = try PostgresQuery(after == nil ? Self.firstMembers : Self.membersAfter, binds)
        var result: [(account: AccountRecord, role: GroupRole, joinedAt: Date)] = []
        for try await row in try await database.query(query, logger: logger) {
            let r = row.makeRandomAccess()
            guard let role = GroupRole(rawValue: try r[15].decode(String.self)) else { continue }
            result.append((try PostgresAccountStore.record(r, offset: 0), role, try r[16].decode(Date.self)))
        }
        return result
    }

    private static let firstMembers = GroupSQL.members(cursor: "").rendered(.postgres)
    private static let membersAfter = GroupSQL.members(cursor: "AND users.id > \(bind: "after")").rendered(.postgres)

    func memberRoles(of group: GroupID) async throws -> [UserID: GroupRole] {
        let rows = try await database.query(
            PostgresQuery(GroupSQL.memberRoles.postgres, ["group": PostgresBind(group.rawValue)]), logger: logger)
        var roles: [UserID: GroupRole] = [:]
        for try await (id, standing) in rows.decode((UUID, String).self) {
            if let role = GroupRole(rawValue: standing) { roles[UserID(rawValue: id)] = role }
        }
        return roles
    }

    func groups(of user: UserID) async throws -> [(group: GroupRecord, role: GroupRole)] {
        let rows = try await database.query(
            PostgresQuery(GroupSQL.groupsOf.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger)
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
        try await groups(PostgresQuery(GroupSQL.requested.postgres, ["user": PostgresBind(user.rawValue)]))
    }

    func discoverable(matching query: String, limit: Int) async throws -> [GroupRecord] {
        let folded = SearchTerms.folded(query)
        return try await groups(
            PostgresQuery(
                GroupSQL.discoverable.postgres, ["query": PostgresBind(folded), "limit": PostgresBind(limit)]))
    }

    func markSeen(_ user: UserID, in group: GroupID, upTo post: PostID) async throws {
        try await database.query(
            PostgresQuery(
                GroupSQL.markSeen.postgres,
                [
                    "post": PostgresBind(post.rawValue), "group": PostgresBind(group.rawValue),
                    "user": PostgresBind(user.rawValue),
                ]), logger: logger)
    }

    func seenMarker(of user: UserID, in group: GroupID) async throws -> PostID? {
        let rows = try await database.query(
            PostgresQuery(
                GroupSQL.seenMarker.postgres,
                ["group": PostgresBind(group.rawValue), "user": PostgresBind(user.rawValue)]),
            logger: logger)
        for try await marker in rows.decode(UUID?.self) { return marker.map(PostID.init(rawValue:)) }
        return nil
    }

    func insert(_ invitation: GroupInvitationRecord) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    GroupSQL.insertInvitation.postgres,
                    [
                        "id": PostgresBind(invitation.id.rawValue), "group": PostgresBind(invitation.groupID.rawValue),
                        "invitedBy": PostgresBind(invitation.invitedBy.rawValue),
                        "invitee": PostgresBind(invitation.invitee?.rawValue),
                        "codeHash": PostgresBind(invitation.codeHash), "expiresAt": PostgresBind(invitation.expiresAt),
                        "maxUses": PostgresBind(invitation.maxUses), "createdAt": PostgresBind(invitation.createdAt),
                    ]), logger: logger)
            if let invitee = invitation.invitee {
                try await connection.query(
                    PostgresQuery(
                        GroupSQL.addStanding.postgres,
                        [
                            "group": PostgresBind(invitation.groupID.rawValue), "user": PostgresBind(invitee.rawValue),
                            "standing": PostgresBind(GroupStanding.invited.rawValue),
                            "at": PostgresBind(invitation.createdAt),
                        ]), logger: logger)
            }
        }
    }

    func invitation(_ id: GroupInvitationID) async throws -> GroupInvitationRecord? {
        try await invitations(PostgresQuery(GroupSQL.invitationByID.postgres, ["id": PostgresBind(id.rawValue)])).first
    }

    func invitation(codeHash: String) async throws -> GroupInvitationRecord? {
        try await invitations(
            PostgresQuery(GroupSQL.invitationByCode.postgres, ["codeHash": PostgresBind(codeHash)])
        ).first
    }

    func invitations(for group: GroupID) async throws -> [GroupInvitationRecord] {
        try await invitations(PostgresQuery(GroupSQL.invitationsFor.postgres, ["group": PostgresBind(group.rawValue)]))
    }

    func invitations(to user: UserID) async throws -> [GroupInvitationRecord] {
        try await invitations(PostgresQuery(GroupSQL.invitationsTo.postgres, ["user": PostgresBind(user.rawValue)]))
    }

    func use(_ invitation: GroupInvitationID) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(GroupSQL.use.postgres, ["id": PostgresBind(invitation.rawValue)]), logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func revoke(_ invitation: GroupInvitationID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                GroupSQL.revoke.postgres, ["at": PostgresBind(date), "id": PostgresBind(invitation.rawValue)]),
            logger: logger)
    }

    private func groups(_ query: PostgresQuery) async throws -> [GroupRecord] {
        var result: [GroupRecord] = []
        for try await row in try await database.query(query, logger: logger) {
            if let group = try Self.record(row.makeRandomAccess()) { result.append(group) }
        }
        return result
    }

    private func invitations(_ query: PostgresQuery) async throws -> [GroupInvitationRecord] {
        var result: [GroupInvitationRecord] = []
        for try await row in try await database.query(query, logger: logger) {
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
