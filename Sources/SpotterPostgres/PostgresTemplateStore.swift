import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// Templates on PostgreSQL (`TemplateSQL`).
struct PostgresTemplateStore: TemplateStore {
    let database: PostgresDatabase
    let logger: Logger

    func insertExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.query(
            PostgresQuery(
                TemplateSQL.insertExercise.postgres,
                [
                    "id": PostgresBind(t.id.rawValue), "author": PostgresBind(t.authorID.rawValue),
                    "name": PostgresBind(t.name), "equipment": PostgresBind(t.equipment),
                    "muscleGroups": PostgresBind(StoredJSON.encode(t.muscleGroups)),
                    "format": PostgresBind(StoredJSON.encode(t.format)),
                    "visibility": PostgresBind(t.visibility.rawValue),
                    "at": PostgresBind(t.createdAt),
                ]), logger: logger)
    }

    func exercise(_ id: ExerciseTemplateID, viewer: UserID?) async throws -> ExerciseTemplate? {
        try await exercises(
            PostgresQuery(
                TemplateSQL.exercise.postgres,
                ["viewer": PostgresBind(viewer?.rawValue), "id": PostgresBind(id.rawValue), "limit": PostgresBind(1)])
        ).first
    }

    func exercises(
        viewer: UserID?, author: UserID?, before: ExerciseTemplateID?, limit: Int
    ) async throws
        -> [ExerciseTemplate]
    {
        let (condition, binds) = Self.page(viewer: viewer, author: author?.rawValue, before: before?.rawValue, limit)
        return try await exercises(PostgresQuery(TemplateSQL.exercises(where: condition).rendered(.postgres), binds))
    }

    /// A page's condition: only the bounds it has, each shape its own plan.
    private static func page(
        viewer: UserID?, author: UUID?, before: UUID?, _ limit: Int
    ) -> (SQLText, [String: PostgresBind]) {
        var conditions: [SQLText] = ["TRUE"]
        var binds = ["viewer": PostgresBind(viewer?.rawValue), "limit": PostgresBind(limit)]
        if let author {
            conditions.append("p.author_id = \(bind: "author")")
            binds["author"] = PostgresBind(author)
        }
        if let before {
            conditions.append("p.id < \(bind: "before")")
            binds["before"] = PostgresBind(before)
        }
        return (SQLText.joined(conditions, separator: " AND "), binds)
    }

    private func exercises(_ query: PostgresQuery) async throws -> [ExerciseTemplate] {
        var templates: [ExerciseTemplate] = []
        for try await row in try await database.query(query, logger: logger) {
            let r = row.makeRandomAccess()
            guard let visibility = Visibility(rawValue: try r[5].decode(String.self)) else { continue }
            templates.append(
                ExerciseTemplate(
                    id: ExerciseTemplateID(rawValue: try r[0].decode(UUID.self)),
                    author: AuthorSummary(
                        id: UserID(rawValue: try r[7].decode(UUID.self)), username: try r[8].decode(String.self),
                        displayName: try r[9].decode(String.self), avatarURL: try r[10].decode(String?.self)),
                    name: try r[1].decode(String.self), equipment: try r[2].decode(String?.self),
                    muscleGroups: StoredJSON.decode([String].self, from: try r[3].decode(String.self)) ?? [],
                    format: StoredJSON.decode([String].self, from: try r[4].decode(String.self)) ?? [],
                    visibility: visibility, createdAt: try r[6].decode(Date.self)))
        }
        return templates
    }

    func tombstoneExercise(_ id: ExerciseTemplateID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                TemplateSQL.tombstoneExercise.postgres, ["at": PostgresBind(date), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    func updateExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.query(
            PostgresQuery(
                TemplateSQL.updateExercise.postgres,
                [
                    "name": PostgresBind(t.name), "equipment": PostgresBind(t.equipment),
                    "muscleGroups": PostgresBind(StoredJSON.encode(t.muscleGroups)),
                    "format": PostgresBind(StoredJSON.encode(t.format)),
                    "visibility": PostgresBind(t.visibility.rawValue),
                    "id": PostgresBind(t.id.rawValue),
                ]), logger: logger)
    }

    func insertWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.query(
            PostgresQuery(
                TemplateSQL.insertWorkout.postgres,
                [
                    "id": PostgresBind(t.id.rawValue), "author": PostgresBind(t.authorID.rawValue),
                    "name": PostgresBind(t.name), "type": PostgresBind(t.type.rawValue),
                    "description": PostgresBind(t.description),
                    "exercises": PostgresBind(StoredJSON.encode(t.exercises)),
                    "visibility": PostgresBind(t.visibility.rawValue), "at": PostgresBind(t.createdAt),
                ]), logger: logger)
    }

    func workoutTemplate(_ id: WorkoutTemplateID, viewer: UserID?) async throws -> WorkoutTemplate? {
        try await workoutTemplates(
            PostgresQuery(
                TemplateSQL.workout.postgres,
                ["viewer": PostgresBind(viewer?.rawValue), "id": PostgresBind(id.rawValue), "limit": PostgresBind(1)])
        ).first
    }

    func workoutTemplates(
        viewer: UserID?, author: UserID?, before: WorkoutTemplateID?, limit: Int
    ) async throws
        -> [WorkoutTemplate]
    {
        let (condition, binds) = Self.page(viewer: viewer, author: author?.rawValue, before: before?.rawValue, limit)
        return try await workoutTemplates(
            PostgresQuery(TemplateSQL.workouts(where: condition).rendered(.postgres), binds))
    }

    private func workoutTemplates(_ query: PostgresQuery) async throws -> [WorkoutTemplate] {
        var templates: [WorkoutTemplate] = []
        for try await row in try await database.query(query, logger: logger) {
            let r = row.makeRandomAccess()
            guard let type = WorkoutType(rawValue: try r[2].decode(String.self)),
                let visibility = Visibility(rawValue: try r[5].decode(String.self))
            else { continue }
            templates.append(
                WorkoutTemplate(
                    id: WorkoutTemplateID(rawValue: try r[0].decode(UUID.self)),
                    author: AuthorSummary(
                        id: UserID(rawValue: try r[7].decode(UUID.self)), username: try r[8].decode(String.self),
                        displayName: try r[9].decode(String.self), avatarURL: try r[10].decode(String?.self)),
                    name: try r[1].decode(String.self), type: type, description: try r[3].decode(String.self),
                    exercises: StoredJSON.decode([TemplateExercise].self, from: try r[4].decode(String.self)) ?? [],
                    visibility: visibility, usesCount: try r[11].decode(Int.self), createdAt: try r[6].decode(Date.self)
                ))
        }
        return templates
    }

    func tombstoneWorkoutTemplate(_ id: WorkoutTemplateID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                TemplateSQL.tombstoneWorkout.postgres, ["at": PostgresBind(date), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    func updateWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.query(
            PostgresQuery(
                TemplateSQL.updateWorkout.postgres,
                [
                    "name": PostgresBind(t.name), "type": PostgresBind(t.type.rawValue),
                    "description": PostgresBind(t.description),
                    "exercises": PostgresBind(StoredJSON.encode(t.exercises)),
                    "visibility": PostgresBind(t.visibility.rawValue), "id": PostgresBind(t.id.rawValue),
                ]), logger: logger)
    }
}
