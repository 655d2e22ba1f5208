import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

struct PostgresChildProfileStore: ChildProfileStore {
    let database: PostgresDatabase
    let logger: Logger

    static let columns = "c.id, c.name, c.birth_year, c.avatar_url, c.created_by, c.created_at"

    func create(_ child: ChildProfileRecord) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO children (id, name, birth_year, avatar_url, created_by, created_at)
                VALUES (\(child.id.rawValue), \(child.name), \(child.birthYear), \(child.avatarURL),
                        \(child.createdBy.rawValue), \(child.createdAt))
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO child_guardians (child_id, user_id, accepted, since)
                VALUES (\(child.id.rawValue), \(child.createdBy.rawValue), TRUE, \(child.createdAt))
                """, logger: logger)
        }
    }

    func find(_ id: ChildProfileID) async throws -> ChildProfileRecord? {
        try await records("SELECT \(unescaped: Self.columns) FROM children c WHERE c.id = \(id.rawValue)").first
    }

    func update(_ child: ChildProfileRecord) async throws {
        try await database.query(
            """
            UPDATE children SET name = \(child.name), birth_year = \(child.birthYear), avatar_url = \(child.avatarURL)
            WHERE id = \(child.id.rawValue)
            """, logger: logger)
    }

    func delete(_ id: ChildProfileID, at date: Date) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                UPDATE media SET discarded_at = \(date)
                WHERE post_id IN (SELECT post_id FROM post_children WHERE child_id = \(id.rawValue))
                  AND discarded_at IS NULL
                """, logger: logger)
            try await connection.query(
                """
                UPDATE posts SET deleted_at = \(date), sealed = NULL
                WHERE id IN (SELECT post_id FROM post_children WHERE child_id = \(id.rawValue)) AND deleted_at IS NULL
                """, logger: logger)
            try await connection.query(
                """
                UPDATE comments SET sealed = NULL
                WHERE sealed IS NOT NULL AND post_id IN (SELECT post_id FROM post_children WHERE child_id = \(id.rawValue))
                """, logger: logger)
            try await connection.query("DELETE FROM children WHERE id = \(id.rawValue)", logger: logger)
        }
    }

    func children(of user: UserID) async throws -> [ChildProfileRecord] {
        try await records(
            """
            SELECT \(unescaped: Self.columns) FROM child_guardians g JOIN children c ON c.id = g.child_id
            WHERE g.user_id = \(user.rawValue) AND g.accepted ORDER BY c.name, c.id
            """)
    }

    func guardians(of child: ChildProfileID) async throws -> [UserID: Bool] {
        var result: [UserID: Bool] = [:]
        let rows = try await database.query(
            "SELECT user_id, accepted FROM child_guardians WHERE child_id = \(child.rawValue)", logger: logger)
        for try await (id, accepted) in rows.decode((UUID, Bool).self) { result[UserID(rawValue: id)] = accepted }
        return result
    }

    func inviteGuardian(_ user: UserID, to child: ChildProfileID, at date: Date) async throws {
        try await database.query(
            """
            INSERT INTO child_guardians (child_id, user_id, accepted, since)
            VALUES (\(child.rawValue), \(user.rawValue), FALSE, \(date))
            ON CONFLICT (child_id, user_id) DO NOTHING
            """, logger: logger)
    }

    func acceptGuardianship(_ user: UserID, of child: ChildProfileID) async throws -> Bool {
        let rows = try await database.query(
            """
            UPDATE child_guardians SET accepted = TRUE
            WHERE child_id = \(child.rawValue) AND user_id = \(user.rawValue) AND NOT accepted RETURNING user_id
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func removeGuardian(_ user: UserID, from child: ChildProfileID) async throws {
        try await database.query(
            "DELETE FROM child_guardians WHERE child_id = \(child.rawValue) AND user_id = \(user.rawValue)",
            logger: logger)
    }

    func guardianInvitations(for user: UserID) async throws -> [ChildProfileRecord] {
        try await records(
            """
            SELECT \(unescaped: Self.columns) FROM child_guardians g JOIN children c ON c.id = g.child_id
            WHERE g.user_id = \(user.rawValue) AND NOT g.accepted ORDER BY c.name, c.id
            """)
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
            """
            SELECT EXISTS (SELECT 1 FROM posts p JOIN post_children pc ON pc.post_id = p.id
                           WHERE p.group_id = \(group.rawValue) AND p.deleted_at IS NULL)
            """, logger: logger)
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
