import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// Personal records replayed after an edit (see the SQLite twin).
extension PostgresPostStore {
    func loggedWorkouts(of author: UserID) async throws -> [LoggedWorkout] {
        var logged: [LoggedWorkout] = []
        for try await (id, workout, records, deleted) in try await database.query(
            PostgresQuery(PersonalRecordSQL.loggedWorkouts.postgres, ["author": PostgresBind(author.rawValue)]),
            logger: logger
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
            PostgresQuery(
                PersonalRecordSQL.setRecords.postgres,
                ["records": PostgresBind(StoredJSON.encode(records)), "post": PostgresBind(post.rawValue)]),
            logger: logger)
    }

    func replacePersonalBests(_ bests: [String: ExerciseBests], of user: UserID) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(PersonalRecordSQL.clearBests.postgres, ["user": PostgresBind(user.rawValue)]),
                logger: logger)
            for (key, value) in bests {
                try await connection.query(
                    PostgresQuery(
                        PersonalRecordSQL.insertBests.postgres,
                        [
                            "user": PostgresBind(user.rawValue), "exercise": PostgresBind(key),
                            "bests": PostgresBind(StoredJSON.encode(value)),
                        ]), logger: logger)
            }
        }
    }
}
