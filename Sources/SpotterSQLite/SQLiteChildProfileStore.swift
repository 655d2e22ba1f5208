import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteChildProfileStore: ChildProfileStore {
    let database: SQLiteDatabase

    func create(_ child: ChildProfileRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: ChildSQL.create.sqlite,
                arguments: [
                    "id": child.id.description, "name": child.name, "birthYear": child.birthYear,
                    "avatarURL": child.avatarURL, "by": child.createdBy.description, "at": child.createdAt.sqliteValue,
                ])
            try db.execute(
                cached: ChildSQL.addCreator.sqlite,
                arguments: [
                    "child": child.id.description, "user": child.createdBy.description,
                    "at": child.createdAt.sqliteValue,
                ])
        }
    }

    func find(_ id: ChildProfileID) async throws -> ChildProfileRecord? {
        try await records(ChildSQL.find, ["id": id.description]).first
    }

    func update(_ child: ChildProfileRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: ChildSQL.update.sqlite,
                arguments: [
                    "name": child.name, "birthYear": child.birthYear, "avatarURL": child.avatarURL,
                    "id": child.id.description,
                ])
        }
    }

    func delete(_ id: ChildProfileID, at date: Date) async throws {
        try await database.write { db in
            let named: StatementArguments = ["at": date.sqliteValue, "child": id.description]
            try db.execute(cached: ChildSQL.discardNamedMedia.sqlite, arguments: named)
            try db.execute(cached: ChildSQL.tombstoneNamedPosts.sqlite, arguments: named)
            try db.execute(cached: ChildSQL.unsealNamedComments.sqlite, arguments: ["child": id.description])
            try db.execute(cached: ChildSQL.delete.sqlite, arguments: ["child": id.description])
        }
    }

    func children(of user: UserID) async throws -> [ChildProfileRecord] {
        try await records(ChildSQL.children, ["user": user.description])
    }

    func guardians(of child: ChildProfileID) async throws -> [UserID: Bool] {
        try await database.read { db in
            var result: [UserID: Bool] = [:]
            for row in try Row.fetchAll(
                cached: db, sql: ChildSQL.guardians.sqlite, arguments: ["child": child.description])
            {
                if let id = UserID(row[0] as String) { result[id] = row[1] as Bool }
            }
            return result
        }
    }

    func inviteGuardian(_ user: UserID, to child: ChildProfileID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: ChildSQL.invite.sqlite,
                arguments: ["child": child.description, "user": user.description, "at": date.sqliteValue])
        }
    }

    func acceptGuardianship(_ user: UserID, of child: ChildProfileID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: ChildSQL.accept.sqlite, arguments: ["child": child.description, "user": user.description])
            return db.changesCount > 0
        }
    }

    func removeGuardian(_ user: UserID, from child: ChildProfileID) async throws {
        try await database.write { db in
            try db.execute(
                cached: ChildSQL.removeGuardian.sqlite,
                arguments: ["child": child.description, "user": user.description])
        }
    }

    func guardianInvitations(for user: UserID) async throws -> [ChildProfileRecord] {
        try await records(ChildSQL.invitations, ["user": user.description])
    }

    func name(_ children: [ChildProfileID], in post: PostID) async throws {
        try await database.write { db in
            for child in children {
                try db.execute(
                    cached: "INSERT INTO post_children (post_id, child_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    arguments: [post.description, child.description])
            }
        }
    }

    func groupHoldsChildContent(_ group: GroupID) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                cached: db,
                sql: ChildSQL.groupHoldsChildContent.sqlite, arguments: ["group": group.description]) ?? false
        }
    }

    private func records(
        _ statement: SQLStatement, _ arguments: StatementArguments
    ) async throws
        -> [ChildProfileRecord]
    {
        try await database.read { db in
            try Row.fetchAll(cached: db, sql: statement.sqlite, arguments: arguments).compactMap { row in
                guard let id = ChildProfileID(row[0] as String), let by = UserID(row[4] as String) else { return nil }
                return ChildProfileRecord(
                    id: id, name: row[1], birthYear: row[2], avatarURL: row[3], createdBy: by,
                    createdAt: Date(sqliteValue: row[5]))
            }
        }
    }
}
