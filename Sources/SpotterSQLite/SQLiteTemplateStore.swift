import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// Templates on SQLite (`TemplateSQL`).
struct SQLiteTemplateStore: TemplateStore {
    let database: SQLiteDatabase

    /// A page's condition: one statement for every page, its absent bounds NULL.
    private static let page: SQLText = """
        (\(bind: "author") IS NULL OR p.author_id = \(bind: "author")) AND (\(bind: "before") IS NULL OR p.id < \(
            bind: "before"))
        """
    private static let exercisePage = SQLStatement(TemplateSQL.exercises(where: page))
    private static let workoutPage = SQLStatement(TemplateSQL.workouts(where: page))

    func insertExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: TemplateSQL.insertExercise.sqlite,
                arguments: [
                    "id": t.id.description, "author": t.authorID.description, "name": t.name,
                    "equipment": t.equipment, "muscleGroups": StoredJSON.encode(t.muscleGroups),
                    "format": StoredJSON.encode(t.format), "visibility": t.visibility.rawValue,
                    "at": t.createdAt.sqliteValue,
                ])
        }
    }

    func exercise(_ id: ExerciseTemplateID, viewer: UserID?) async throws -> ExerciseTemplate? {
        try await exercises(
            TemplateSQL.exercise, ["id": id.description, "viewer": viewer?.description, "limit": 1]
        )
        .first
    }

    func exercises(
        viewer: UserID?, author: UserID?, before: ExerciseTemplateID?, limit: Int
    ) async throws
        -> [ExerciseTemplate]
    {
        try await exercises(
            Self.exercisePage,
            [
                "author": author?.description, "before": before?.description, "viewer": viewer?.description,
                "limit": limit,
            ])
    }

    private func exercises(
        _ statement: SQLStatement, _ arguments: StatementArguments
    ) async throws
        -> [ExerciseTemplate]
    {
        try await database.read { db in
            try Row.fetchAll(cached: db, sql: statement.sqlite, arguments: arguments).compactMap { row in
                guard let id = ExerciseTemplateID(row[0] as String), let authorID = UserID(row[7] as String),
                    let visibility = Visibility(rawValue: row[5])
                else { return nil }
                return ExerciseTemplate(
                    id: id,
                    author: AuthorSummary(id: authorID, username: row[8], displayName: row[9], avatarURL: row[10]),
                    name: row[1], equipment: row[2], muscleGroups: StoredJSON.decode([String].self, from: row[3]) ?? [],
                    format: StoredJSON.decode([String].self, from: row[4]) ?? [], visibility: visibility,
                    createdAt: Date(sqliteValue: row[6]))
            }
        }
    }

    func tombstoneExercise(_ id: ExerciseTemplateID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: TemplateSQL.tombstoneExercise.sqlite, arguments: ["at": date.sqliteValue, "id": id.description])
        }
    }

    func updateExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: TemplateSQL.updateExercise.sqlite,
                arguments: [
                    "name": t.name, "equipment": t.equipment, "muscleGroups": StoredJSON.encode(t.muscleGroups),
                    "format": StoredJSON.encode(t.format), "visibility": t.visibility.rawValue, "id": t.id.description,
                ])
        }
    }

    func insertWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: TemplateSQL.insertWorkout.sqlite,
                arguments: [
                    "id": t.id.description, "author": t.authorID.description, "name": t.name, "type": t.type.rawValue,
                    "description": t.description, "exercises": StoredJSON.encode(t.exercises),
                    "visibility": t.visibility.rawValue, "at": t.createdAt.sqliteValue,
                ])
        }
    }

    func workoutTemplate(_ id: WorkoutTemplateID, viewer: UserID?) async throws -> WorkoutTemplate? {
        try await workoutTemplates(
            TemplateSQL.workout, ["id": id.description, "viewer": viewer?.description, "limit": 1]
        )
        .first
    }

    func workoutTemplates(
        viewer: UserID?, author: UserID?, before: WorkoutTemplateID?, limit: Int
    ) async throws
        -> [WorkoutTemplate]
    {
        try await workoutTemplates(
            Self.workoutPage,
            [
                "author": author?.description, "before": before?.description, "viewer": viewer?.description,
                "limit": limit,
            ])
    }

    private func workoutTemplates(
        _ statement: SQLStatement, _ arguments: StatementArguments
    ) async throws
        -> [WorkoutTemplate]
    {
        try await database.read { db in
            try Row.fetchAll(cached: db, sql: statement.sqlite, arguments: arguments).compactMap { row in
                guard let id = WorkoutTemplateID(row[0] as String), let authorID = UserID(row[7] as String),
                    let type = WorkoutType(rawValue: row[2]), let visibility = Visibility(rawValue: row[5])
                else { return nil }
                return WorkoutTemplate(
                    id: id,
                    author: AuthorSummary(id: authorID, username: row[8], displayName: row[9], avatarURL: row[10]),
                    name: row[1], type: type, description: row[3],
                    exercises: StoredJSON.decode([TemplateExercise].self, from: row[4]) ?? [], visibility: visibility,
                    usesCount: row[11], createdAt: Date(sqliteValue: row[6]))
            }
        }
    }

    func tombstoneWorkoutTemplate(_ id: WorkoutTemplateID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: TemplateSQL.tombstoneWorkout.sqlite, arguments: ["at": date.sqliteValue, "id": id.description])
        }
    }

    func updateWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: TemplateSQL.updateWorkout.sqlite,
                arguments: [
                    "name": t.name, "type": t.type.rawValue, "description": t.description,
                    "exercises": StoredJSON.encode(t.exercises), "visibility": t.visibility.rawValue,
                    "id": t.id.description,
                ])
        }
    }
}
