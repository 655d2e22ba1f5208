import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresChildProfileStore: ChildProfileStore {
    let database: PostgresDatabase
    let logger: Logger

    func create(_ child: ChildProfileRecord) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    ChildSQL.create.postgres,
                    [
                        "id": PostgresBind(child.id.rawValue), "name": PostgresBind(child.name),
                        "birthYear": PostgresBind(child.birthYear), "avatarURL": PostgresBind(child.avatarURL),
                        "by": PostgresBind(child.createdBy.rawValue), "at": PostgresBind(child.createdAt),
                    ]), logger: logger)
            try await connection.query(
                PostgresQuery(
                    ChildSQL.addCreator.postgres,
                    [
                        "child": PostgresBind(child.id.rawValue), "user": PostgresBind(child.createdBy.rawValue),
                        "at": PostgresBind(child.createdAt),
                    ]), logger: logger)
        }
    }

    func find(_ id: ChildProfileID) async throws -> ChildProfileRecord? {
        try await records(PostgresQuery(ChildSQL.find.postgres, ["id": PostgresBind(id.rawValue)])).first
    }

    func update(_ child: ChildProfileRecord) async throws {
        try await database.query(
            PostgresQuery(
                ChildSQL.update.postgres,
                [
                    "name": PostgresBind(child.name), "birthYear": PostgresBind(child.birthYear),
                    "avatarURL": PostgresBind(child.avatarURL), "id": PostgresBind(child.id.rawValue),
                ]), logger: logger)
    }

    func delete(_ id: ChildProfileID, at date: Date) async throws {
        try await database.withTransaction(logger: logger) { connection in
            let named = ["at": PostgresBind(date), "child": PostgresBind(id.rawValue)]
            try await connection.query(PostgresQuery(ChildSQL.discardNamedMedia.postgres, named), logger: logger)
            try await connection.query(PostgresQuery(ChildSQL.tombstoneNamedPosts.postgres, named), logger: logger)
            try await connection.query(
                PostgresQuery(ChildSQL.unsealNamedComments.postgres, ["child": PostgresBind(id.rawValue)]),
                logger: logger)
            try await connection.query(
                PostgresQuery(ChildSQL.delete.postgres, ["child": PostgresBind(id.rawValue)]), logger: logger)
        }
    }

    func children(of user: UserID) async throws -> [ChildProfileRecord] {
        try await records(PostgresQuery(ChildSQL.children.postgres, ["user": PostgresBind(user.rawValue)]))
    }

    func guardians(of child: ChildProfileID) async throws -> [UserID: Bool] {
        var result: [UserID: Bool] = [:]
        let rows = try await database.query(
            PostgresQuery(ChildSQL.guardians.postgres, ["child": PostgresBind(child.rawValue)]), logger: logger)
        for try await (id, accepted) in rows.decode((UUID, Bool).self) { result[UserID(rawValue: id)] = accepted }
        return result
    }

    func inviteGuardian(_ user: UserID, to child: ChildProfileID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                ChildSQL.invite.postgres,
                ["child": PostgresBind(child.rawValue), "user": PostgresBind(user.rawValue), "at": PostgresBind(date)]),
            logger: logger)
    }

    func acceptGuardianship(_ user: UserID, of child: ChildProfileID) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(
                ChildSQL.accept.postgres, ["child": PostgresBind(child.rawValue), "user": PostgresBind(user.rawValue)]),
            logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func removeGuardian(_ user: UserID, from child: ChildProfileID) async throws {
        try await database.query(
            PostgresQuery(
                ChildSQL.removeGuardian.postgres,
                ["child": PostgresBind(child.rawValue), "user": PostgresBind(user.rawValue)]),
            logger: logger)
    }

    func guardianInvitations(for user: UserID) async throws -> [ChildProfileRecord] {
        try await records(PostgresQuery(ChildSQL.invitations.postgres, ["user": PostgresBind(user.rawValue)]))
    }

    func name(_ children: [ChildProfileID], in post: PostID) async throws {
        guard !children.isEmpty else { return }
        try await database.query(
            """
            INSERT INTO post_children (post_id, child_id)
            SELECT \(post.rawValue), unnest(\(children.map(\.rawValue))::uuid[]) ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    func groupHoldsChildContent(_ group: GroupID) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(ChildSQL.groupHoldsChildContent.postgres, ["group": PostgresBind(group.rawValue)]),
            logger: logger)
        for try await holds in rows.decode(Bool.self) { return holds }
        return false
    }

    private func records(_ query: PostgresQuery) async throws -> [ChildProfileRecord] {
        var result: [ChildProfileRecord] = []
        for try await row in try await database.query(query, logger: logger) {
            let r = row.makeRandomAccess()
            result.append(
                ChildProfileRecord(
                    id: ChildProfileID(rawValue: try r[0].decode(UUID.self)), name: try r[1].decode(String.self),
                    birthYear: try r[2].decode(Int.self), avatarURL: try r[3].decode(String?.self),
                    createdBy: UserID(rawValue: try r[4].decode(UUID.self)), createdAt: try r[5].decode(Date.self)))
        }
        return result
    }
}
