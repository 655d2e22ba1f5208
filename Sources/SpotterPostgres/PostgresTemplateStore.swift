import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

/// Templates on PostgreSQL. Tables are aliased `p` (with author `u`) so `PostgresPostSQL.visible` applies.
struct PostgresTemplateStore: TemplateStore {
    let database: PostgresDatabase
    let logger: Logger

    private static let author = "u.id, u.username, u.display_name, u.avatar_url"

    func insertExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.query(
            """
            INSERT INTO exercise_templates (id, author_id, name, equipment, muscle_groups, format, visibility, created_at)
            VALUES (\(t.id.rawValue), \(t.authorID.rawValue), \(t.name), \(t.equipment),
                    \(StoredJSON.encode(t.muscleGroups)), \(StoredJSON.encode(t.format)), \(t.visibility.rawValue),
                    \(t.createdAt))
            """, logger: logger)
    }

    func exercise(_ id: ExerciseTemplateID, viewer: UserID?) async throws -> ExerciseTemplate? {
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        let clause = "p.id = \(try builder.bind(id.rawValue))"
        return try await exercises(&builder, clause: clause, limit: 1).first
    }

    func exercises(
        viewer: UserID?, author: UserID?, before: ExerciseTemplateID?, limit: Int
    ) async throws
        -> [ExerciseTemplate]
    {
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        var clauses = ["TRUE"]
        if let author { clauses.append("p.author_id = \(try builder.bind(author.rawValue))") }
        if let before { clauses.append("p.id < \(try builder.bind(before.rawValue))") }
        return try await exercises(&builder, clause: clauses.joined(separator: " AND "), limit: limit)
    }

    private func exercises(
        _ builder: inout PostgresPostSQL.Builder, clause: String, limit: Int
    ) async throws
        -> [ExerciseTemplate]
    {
        let sql = """
            SELECT p.id, p.name, p.equipment, p.muscle_groups, p.format, p.visibility, p.created_at, \(Self.author)
            FROM exercise_templates p JOIN users u ON u.id = p.author_id
            WHERE \(clause) AND \(PostgresPostSQL.visibleTemplate)
            ORDER BY p.id DESC LIMIT \(try builder.bind(limit))
            """
        var templates: [ExerciseTemplate] = []
        for try await row in try await database.query(builder.query(sql), logger: logger) {
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
            "UPDATE exercise_templates SET deleted_at = \(date) WHERE id = \(id.rawValue) AND deleted_at IS NULL",
            logger: logger)
    }

    func updateExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.query(
            """
            UPDATE exercise_templates SET name = \(t.name), equipment = \(t.equipment),
                muscle_groups = \(StoredJSON.encode(t.muscleGroups)), format = \(StoredJSON.encode(t.format)),
                visibility = \(t.visibility.rawValue)
            WHERE id = \(t.id.rawValue) AND deleted_at IS NULL
            """, logger: logger)
    }

    func insertWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.query(
            """
            INSERT INTO workout_templates (id, author_id, name, type, description, exercises, visibility, created_at)
            VALUES (\(t.id.rawValue), \(t.authorID.rawValue), \(t.name), \(t.type.rawValue), \(t.description),
                    \(StoredJSON.encode(t.exercises)), \(t.visibility.rawValue), \(t.createdAt))
            """, logger: logger)
    }

    func workoutTemplate(_ id: WorkoutTemplateID, viewer: UserID?) async throws -> WorkoutTemplate? {
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        let clause = "p.id = \(try builder.bind(id.rawValue))"
        return try await workoutTemplates(&builder, clause: clause, limit: 1).first
    }

    func workoutTemplates(
        viewer: UserID?, author: UserID?, before: WorkoutTemplateID?, limit: Int
    ) async throws
        -> [WorkoutTemplate]
    {
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        var clauses = ["TRUE"]
        if let author { clauses.append("p.author_id = \(try builder.bind(author.rawValue))") }
        if let before { clauses.append("p.id < \(try builder.bind(before.rawValue))") }
        return try await workoutTemplates(&builder, clause: clauses.joined(separator: " AND "), limit: limit)
    }

    private func workoutTemplates(
        _ builder: inout PostgresPostSQL.Builder, clause: String, limit: Int
    ) async throws
        -> [WorkoutTemplate]
    {
        let sql = """
            SELECT p.id, p.name, p.type, p.description, p.exercises, p.visibility, p.created_at, \(Self.author),
                   (SELECT COUNT(*) FROM posts wp JOIN users wu ON wu.id = wp.author_id
                    WHERE wp.template_id = p.id AND \(PostgresPostSQL.visible(post: "wp", author: "wu")))
            FROM workout_templates p JOIN users u ON u.id = p.author_id
            WHERE \(clause) AND \(PostgresPostSQL.visibleTemplate)
            ORDER BY p.id DESC LIMIT \(try builder.bind(limit))
            """
        var templates: [WorkoutTemplate] = []
        for try await row in try await database.query(builder.query(sql), logger: logger) {
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
            "UPDATE workout_templates SET deleted_at = \(date) WHERE id = \(id.rawValue) AND deleted_at IS NULL",
            logger: logger)
    }

    func updateWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.query(
            """
            UPDATE workout_templates SET name = \(t.name), type = \(t.type.rawValue), description = \(t.description),
                exercises = \(StoredJSON.encode(t.exercises)), visibility = \(t.visibility.rawValue)
            WHERE id = \(t.id.rawValue) AND deleted_at IS NULL
            """, logger: logger)
    }
}
