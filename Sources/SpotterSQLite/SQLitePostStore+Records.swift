import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// Personal records replayed after an edit (`PersonalRecordDetector.replay`): a person's workouts in the order
/// they were logged, and the writes that put the replay's records and bests in place.
extension SQLitePostStore {
    func loggedWorkouts(of author: UserID) async throws -> [LoggedWorkout] {
        // On the writer: the records replayed from it are written in the same unit.
        try await database.readOnWriter { db in
            try Row.fetchAll(
                cached: db,
                sql: PersonalRecordSQL.loggedWorkouts.sqlite, arguments: ["author": author.description]
            ).compactMap { row in
                guard let id = PostID(row[0] as String) else { return nil }
                return LoggedWorkout(
                    postID: id, workout: StoredJSON.decode(WorkoutRecord.self, from: row[1]),
                    records: StoredJSON.decode([PersonalRecord].self, from: row[2]) ?? [], deleted: row[3])
            }
        }
    }

    func setRecords(_ records: [PersonalRecord], of post: PostID) async throws {
        try await database.write { db in
            try db.execute(
                cached: PersonalRecordSQL.setRecords.sqlite,
                arguments: ["records": StoredJSON.encode(records), "post": post.description])
        }
    }

    func replacePersonalBests(_ bests: [String: ExerciseBests], of user: UserID) async throws {
        try await database.write { db in
            try db.execute(cached: PersonalRecordSQL.clearBests.sqlite, arguments: ["user": user.description])
            for (key, value) in bests {
                try db.execute(
                    cached: PersonalRecordSQL.insertBests.sqlite,
                    arguments: ["user": user.description, "exercise": key, "bests": StoredJSON.encode(value)])
            }
        }
    }
}
