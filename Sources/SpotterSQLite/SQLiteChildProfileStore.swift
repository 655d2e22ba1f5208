import Foundation
import GRDB
import SpotterCore
import SpotterModels

struct SQLiteChildProfileStore: ChildProfileStore {
    let database: SQLiteDatabase

    static let columns = "c.id, c.name, c.birth_year, c.avatar_url, c.created_by, c.created_at"

    func create(_ child: ChildProfileRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    INSERT INTO children (id, name, birth_year, avatar_url, created_by, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    child.id.description, child.name, child.birthYear, child.avatarURL, child.createdBy.description,
                    child.createdAt.sqliteValue,
                ])
            try db.execute(
                cached: "INSERT INTO child_guardians (child_id, user_id, accepted, since) VALUES (?, ?, 1, ?)",
                arguments: [child.id.description, child.createdBy.description, child.createdAt.sqliteValue])
        }
    }

    func find(_ id: ChildProfileID) async throws -> ChildProfileRecord? {
        try await records("SELECT \(Self.columns) FROM children c WHERE c.id = ?", [id.description]).first
    }

    func update(_ child: ChildProfileRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: "UPDATE children SET name = ?, birth_year = ?, avatar_url = ? WHERE id = ?",
                arguments: [child.name, child.birthYear, child.avatarURL, child.id.description])
        }
    }

    func delete(_ id: ChildProfileID, at date: Date) async throws {
        try await database.write { db in
            let named = "SELECT post_id FROM post_children WHERE child_id = ?"
            try db.execute(
                cached: """
                    UPDATE media SET discarded_at = ?
                    WHERE post_id IN (\(named)) AND discarded_at IS NULL
                    """,
                arguments: [date.sqliteValue, id.description])
            try db.execute(
                cached: "UPDATE posts SET deleted_at = ?, sealed = NULL WHERE id IN (\(named)) AND deleted_at IS NULL",
                arguments: [date.sqliteValue, id.description])
            try db.execute(
                cached: "UPDATE comments SET sealed = NULL WHERE sealed IS NOT NULL AND post_id IN (\(named))",
                arguments: [id.description])
            try db.execute(cached: "DELETE FROM children WHERE id = ?", arguments: [id.description])
        }
    }

    func children(of user: UserID) async throws -> [ChildProfileRecord] {
        try await records(
            """
            SELECT \(Self.columns) FROM child_guardians g JOIN children c ON c.id = g.child_id
            WHERE g.user_id = ? AND g.accepted = 1 ORDER BY c.name, c.id
            """, [user.description])
    }

    func guardians(of child: ChildProfileID) async throws -> [UserID: Bool] {
        try await database.read { db in
            var result: [UserID: Bool] = [:]
            for row in try Row.fetchAll(
                cached: db, sql: "SELECT user_id, accepted FROM child_guardians WHERE child_id = ?",
                arguments: [child.description])
            {
                if let id = UserID(row[0] as String) { result[id] = row[1] as Bool }
            }
            return result
        }
    }

    func inviteGuardian(_ user: UserID, to child: ChildProfileID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    INSERT INTO child_guardians (child_id, user_id, accepted, since) VALUES (?, ?, 0, ?)
                    ON CONFLICT (child_id, user_id) DO NOTHING
                    """,
                arguments: [child.description, user.description, date.sqliteValue])
        }
    }

    func acceptGuardianship(_ user: UserID, of child: ChildProfileID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: "UPDATE child_guardians SET accepted = 1 WHERE child_id = ? AND user_id = ? AND accepted = 0",
                arguments: [child.description, user.description])
            return db.changesCount > 0
        }
    }

    func removeGuardian(_ user: UserID, from child: ChildProfileID) async throws {
        try await database.write { db in
            try db.execute(
                cached: "DELETE FROM child_guardians WHERE child_id = ? AND user_id = ?",
                arguments: [child.description, user.description])
        }
    }

    func guardianInvitations(for user: UserID) async throws -> [ChildProfileRecord] {
        try await records(
            """
            SELECT \(Self.columns) FROM child_guardians g JOIN children c ON c.id = g.child_id
            WHERE g.user_id = ? AND g.accepted = 0 ORDER BY c.name, c.id
            """, [user.description])
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
                sql: """
                    SELECT EXISTS (SELECT 1 FROM posts p JOIN post_children pc ON pc.post_id = p.id
                                   WHERE p.group_id = ? AND p.deleted_at IS NULL)
                    """,
                arguments: [group.description]) ?? false
        }
    }

    private func records(_ sql: String, _ arguments: StatementArguments) async throws -> [ChildProfileRecord] {
        try await database.read { db in
            try Row.fetchAll(cached: db, sql: sql, arguments: arguments).compactMap { row in
                guard let id = ChildProfileID(row[0] as String), let by = UserID(row[4] as String) else { return nil }
                return ChildProfileRecord(
                    id: id, name: row[1], birthYear: row[2], avatarURL: row[3], createdBy: by,
                    createdAt: Date(sqliteValue: row[5]))
            }
        }
    }
}
