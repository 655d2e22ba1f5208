import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteGroupStore: GroupStore {
    let database: SQLiteDatabase

    func create(_ group: GroupRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: GroupSQL.create.sqlite,
                arguments: [
                    "id": group.id.description, "name": group.name, "folded": SearchTerms.folded(group.name),
                    "description": group.description, "avatarURL": group.avatarURL, "timeZone": group.timeZone,
                    "access": group.access.rawValue, "owner": group.ownerID.description,
                    "createdAt": group.createdAt.sqliteValue, "encrypted": group.encrypted,
                ])
            try Self.setStanding(.owner, of: group.ownerID, in: group.id, at: group.createdAt, db)
        }
    }

    func find(_ id: GroupID) async throws -> GroupRecord? {
        try await database.read { db in
            try Row.fetchOne(
                cached: db, sql: GroupSQL.find.sqlite, arguments: ["group": id.description]
            ).flatMap(Self.record)
        }
    }

    func update(_ group: GroupRecord) async throws {
        try await execute(
            GroupSQL.update,
            [
                "name": group.name, "folded": SearchTerms.folded(group.name), "description": group.description,
                "avatarURL": group.avatarURL, "timeZone": group.timeZone, "access": group.access.rawValue,
                "group": group.id.description,
            ])
    }

    func delete(_ id: GroupID, at date: Date) async throws {
        try await database.write { db in
            let arguments: StatementArguments = ["group": id.description, "at": date.sqliteValue]
            // An encrypted group's ciphertext goes for good, its posts' and their comments'.
            for statement in GroupSQL.delete { try db.execute(cached: statement.sqlite, arguments: arguments) }
        }
    }

    func standing(of user: UserID, in group: GroupID) async throws -> GroupStanding {
        try await database.read { db in
            try String.fetchOne(
                cached: db, sql: GroupSQL.standing.sqlite,
                arguments: ["group": group.description, "user": user.description]
            ).flatMap(GroupStanding.init(rawValue:)) ?? GroupStanding.none
        }
    }

    func setMember(_ user: UserID, in group: GroupID, role: GroupRole, at date: Date) async throws {
        try await database.write { db in
            try Self.setStanding(GroupStanding(rawValue: role.rawValue) ?? .member, of: user, in: group, at: date, db)
        }
    }

    /// Sets a standing; `since` moves only when someone becomes a member (their join date stays when their
    /// role changes).
    private static func setStanding(
        _ standing: GroupStanding, of user: UserID, in group: GroupID, at date: Date, _ db: Database
    ) throws {
        try db.execute(
            cached: GroupSQL.setStanding.sqlite,
            arguments: [
                "group": group.description, "user": user.description, "standing": standing.rawValue,
                "at": date.sqliteValue,
            ])
    }

    func removeMember(_ user: UserID, from group: GroupID) async throws -> Bool {
        try await database.write { db in
            try String.fetchOne(
                cached: db, sql: GroupSQL.removeMember.sqlite,
                arguments: ["group": group.description, "user": user.description]
            ).flatMap(GroupStanding.init(rawValue:))?.role != nil
        }
    }

    func ban(_ user: UserID, from group: GroupID, at date: Date) async throws {
        try await database.write { db in try Self.setStanding(.banned, of: user, in: group, at: date, db) }
    }

    func unban(_ user: UserID, from group: GroupID) async throws {
        try await execute(GroupSQL.unban, ["group": group.description, "user": user.description])
    }

    func transfer(_ group: GroupID, to newOwner: UserID) async throws {
        try await database.write { db in
            let arguments: StatementArguments = ["group": group.description, "user": newOwner.description]
            for statement in GroupSQL.transfer { try db.execute(cached: statement.sqlite, arguments: arguments) }
        }
    }

    func addRequest(_ user: UserID, to group: GroupID, at date: Date) async throws {
        try await execute(
            GroupSQL.addStanding,
            [
                "group": group.description, "user": user.description, "standing": GroupStanding.requested.rawValue,
                "at": date.sqliteValue,
            ])
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
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: GroupSQL.people.sqlite,
                arguments: ["group": group.description, "standing": standing, "withSuspended": withSuspended]
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
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: Self.membersSQL,
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

    /// The members' page past `:after`, when there is one.
    private static let membersSQL = GroupSQL.members(
        cursor: "AND (\(bind: "after") IS NULL OR users.id > \(bind: "after"))"
    ).rendered(.sqlite).text

    func memberRoles(of group: GroupID) async throws -> [UserID: GroupRole] {
        try await database.read { db in
            var roles: [UserID: GroupRole] = [:]
            for row in try Row.fetchAll(
                cached: db,
                sql: GroupSQL.memberRoles.sqlite, arguments: ["group": group.description])
            {
                if let id = UserID(row[0] as String), let role = GroupRole(rawValue: row[1]) { roles[id] = role }
            }
            return roles
        }
    }

    func groups(of user: UserID) async throws -> [(group: GroupRecord, role: GroupRole)] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: GroupSQL.groupsOf.sqlite, arguments: ["user": user.description]
            ).compactMap { row in
                guard let group = Self.record(row), let role = GroupRole(rawValue: row[10]) else { return nil }
                return (group, role)
            }
        }
    }

    func requested(by user: UserID) async throws -> [GroupRecord] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: GroupSQL.requested.sqlite, arguments: ["user": user.description]
            ).compactMap(Self.record)
        }
    }

    func discoverable(matching query: String, limit: Int) async throws -> [GroupRecord] {
        let folded = SearchTerms.folded(query)
        return try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: GroupSQL.discoverable.sqlite,
                arguments: ["query": folded, "limit": limit]
            ).compactMap(Self.record)
        }
    }

    func markSeen(_ user: UserID, in group: GroupID, upTo post: PostID) async throws {
        try await execute(
            GroupSQL.markSeen,
            ["post": post.description, "group": group.description, "user": user.description])
    }

    func seenMarker(of user: UserID, in group: GroupID) async throws -> PostID? {
        try await database.read { db in
            try String.fetchOne(
                cached: db, sql: GroupSQL.seenMarker.sqlite,
                arguments: ["group": group.description, "user": user.description]
            ).flatMap(PostID.init)
        }
    }

    func insert(_ invitation: GroupInvitationRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: GroupSQL.insertInvitation.sqlite,
                arguments: [
                    "id": invitation.id.description, "group": invitation.groupID.description,
                    "invitedBy": invitation.invitedBy.description, "invitee": invitation.invitee?.description,
                    "codeHash": invitation.codeHash, "expiresAt": invitation.expiresAt?.sqliteValue,
                    "maxUses": invitation.maxUses, "createdAt": invitation.createdAt.sqliteValue,
                ])
            if let invitee = invitation.invitee {
                try db.execute(
                    cached: GroupSQL.addStanding.sqlite,
                    arguments: [
                        "group": invitation.groupID.description, "user": invitee.description,
                        "standing": GroupStanding.invited.rawValue, "at": invitation.createdAt.sqliteValue,
                    ])
            }
        }
    }

    func invitation(_ id: GroupInvitationID) async throws -> GroupInvitationRecord? {
        try await invitations(GroupSQL.invitationByID, ["id": id.description]).first
    }

    func invitation(codeHash: String) async throws -> GroupInvitationRecord? {
        try await invitations(GroupSQL.invitationByCode, ["codeHash": codeHash]).first
    }

    func invitations(for group: GroupID) async throws -> [GroupInvitationRecord] {
        try await invitations(GroupSQL.invitationsFor, ["group": group.description])
    }

    func invitations(to user: UserID) async throws -> [GroupInvitationRecord] {
        try await invitations(GroupSQL.invitationsTo, ["user": user.description])
    }

    private func invitations(
        _ statement: SQLStatement, _ arguments: StatementArguments
    ) async throws
        -> [GroupInvitationRecord]
    {
        try await database.read { db in
            try Row.fetchAll(
                cached: db, sql: statement.sqlite,
                arguments: arguments
            ).compactMap(Self.invitation)
        }
    }

    func use(_ invitation: GroupInvitationID) async throws -> Bool {
        try await database.write { db in
            try Row.fetchOne(cached: db, sql: GroupSQL.use.sqlite, arguments: ["id": invitation.description]) != nil
        }
    }

    func revoke(_ invitation: GroupInvitationID, at date: Date) async throws {
        try await execute(GroupSQL.revoke, ["at": date.sqliteValue, "id": invitation.description])
    }

    private func execute(_ statement: SQLStatement, _ arguments: StatementArguments) async throws {
        try await database.write { db in try db.execute(cached: statement.sqlite, arguments: arguments) }
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
