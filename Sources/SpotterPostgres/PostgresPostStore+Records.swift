import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels

/// Personal records replayed after an edit (see the SQLite twin).
extension PostgresPostStore {
    func loggedWorkouts(of author: UserID) async throws -> [LoggedWorkout] {
        var logged: [LoggedWorkout] = []
        for try await (id, workout, records, deleted) in try await database.query(
            """
            SELECT id, workout, records, deleted_at IS NOT NULL FROM posts
            WHERE author_id = \(author.rawValue) AND kind = 'workout' ORDER BY id
            """, logger: logger
        ).decode((UUID, String?, String, Bool).self) {
            logged.append(
                LoggedWorkout(
                    postID: PostID(rawValue: id), workout: StoredJSON.decode(WorkoutRecord.self, from: workout),
                    records: StoredJSON.decode([PersonalRecord].self, from: records) ?? [], deleted: deleted))
        }
        return logged
    }

    func setRecords(_ records: [PersonalRecord], of post: PostID) async throws {
        try await database.query(
            "UPDATE posts SET records = \(StoredJSON.encode(records)) WHERE id = \(post.rawValue)", logger: logger)
    }

    func replacePersonalBests(_ bests: [String: ExerciseBests], of user: UserID) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                "DELETE FROM personal_bests WHERE user_id = \(user.rawValue)", logger: logger)
            for (key, value) in bests {
                try await connection.query(
                    """
                    INSERT INTO personal_bests (user_id, exercise_key, bests)
                    VALUES (\(user.rawValue), \(key), \(StoredJSON.encode(value)))
                    """, logger: logger)
            }
        }
    }
}
