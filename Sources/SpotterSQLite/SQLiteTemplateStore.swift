import Foundation
import GRDB
import SpotterCore
import SpotterModels

/// Templates on SQLite. Tables are aliased `p` (with author `u`) so `SQLitePostSQL.visible` applies as is.
struct SQLiteTemplateStore: TemplateStore {
    let database: SQLiteDatabase

    private static let author = "u.id, u.username, u.display_name, u.avatar_url"

    func insertExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    INSERT INTO exercise_templates (id, author_id, name, equipment, muscle_groups, format, visibility,
                                                    created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    t.id.description, t.authorID.description, t.name, t.equipment, StoredJSON.encode(t.muscleGroups),
                    StoredJSON.encode(t.format), t.visibility.rawValue, t.createdAt.sqliteValue,
                ])
        }
    }

    func exercise(_ id: ExerciseTemplateID, viewer: UserID?) async throws -> ExerciseTemplate? {
        try await exercises(clause: "p.id = :id", ["id": id.description, "viewer": viewer?.description, "limit": 1])
            .first
    }

    func exercises(
        viewer: UserID?, author: UserID?, before: ExerciseTemplateID?, limit: Int
    ) async throws
        -> [ExerciseTemplate]
    {
        try await exercises(
            clause: "(:author IS NULL OR p.author_id = :author) AND (:before IS NULL OR p.id < :before)",
            [
                "author": author?.description, "before": before?.description, "viewer": viewer?.description,
                "limit": limit,
            ])
    }

    private func exercises(clause: String, _ arguments: StatementArguments) async throws -> [ExerciseTemplate] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT p.id, p.name, p.equipment, p.muscle_groups, p.format, p.visibility, p.created_at,
                           \(Self.author)
                    FROM exercise_templates p JOIN users u ON u.id = p.author_id
                    WHERE \(clause) AND \(SQLitePostSQL.visibleTemplate)
                    ORDER BY p.id DESC LIMIT :limit
                    """,
                arguments: arguments
            ).compactMap { row in
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
                cached: "UPDATE exercise_templates SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
                arguments: [date.sqliteValue, id.description])
        }
    }

    func updateExercise(_ t: ExerciseTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    UPDATE exercise_templates SET name = ?, equipment = ?, muscle_groups = ?, format = ?, visibility = ?
                    WHERE id = ? AND deleted_at IS NULL
                    """,
                arguments: [
                    t.name, t.equipment, StoredJSON.encode(t.muscleGroups), StoredJSON.encode(t.format),
                    t.visibility.rawValue, t.id.description,
                ])
        }
    }

    func insertWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    INSERT INTO workout_templates (id, author_id, name, type, description, exercises, visibility,
                                                   created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    t.id.description, t.authorID.description, t.name, t.type.rawValue, t.description,
                    StoredJSON.encode(t.exercises), t.visibility.rawValue, t.createdAt.sqliteValue,
                ])
        }
    }

    func workoutTemplate(_ id: WorkoutTemplateID, viewer: UserID?) async throws -> WorkoutTemplate? {
        try await workoutTemplates(
            clause: "p.id = :id", ["id": id.description, "viewer": viewer?.description, "limit": 1]
        )
        .first
    }

    func workoutTemplates(
        viewer: UserID?, author: UserID?, before: WorkoutTemplateID?, limit: Int
    ) async throws
        -> [WorkoutTemplate]
    {
        try await workoutTemplates(
            clause: "(:author IS NULL OR p.author_id = :author) AND (:before IS NULL OR p.id < :before)",
            [
                "author": author?.description, "before": before?.description, "viewer": viewer?.description,
                "limit": limit,
            ])
    }

    private func workoutTemplates(clause: String, _ arguments: StatementArguments) async throws -> [WorkoutTemplate] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT p.id, p.name, p.type, p.description, p.exercises, p.visibility, p.created_at,
                           \(Self.author),
                           (SELECT COUNT(*) FROM posts wp JOIN users wu ON wu.id = wp.author_id
                            WHERE wp.template_id = p.id AND \(SQLitePostSQL.visible(post: "wp", author: "wu")))
                    FROM workout_templates p JOIN users u ON u.id = p.author_id
                    WHERE \(clause) AND \(SQLitePostSQL.visibleTemplate)
                    ORDER BY p.id DESC LIMIT :limit
                    """,
                arguments: arguments
            ).compactMap { row in
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
                cached: "UPDATE workout_templates SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
                arguments: [date.sqliteValue, id.description])
        }
    }

    func updateWorkoutTemplate(_ t: WorkoutTemplateRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    UPDATE workout_templates SET name = ?, type = ?, description = ?, exercises = ?, visibility = ?
                    WHERE id = ? AND deleted_at IS NULL
                    """,
                arguments: [
                    t.name, t.type.rawValue, t.description, StoredJSON.encode(t.exercises), t.visibility.rawValue,
                    t.id.description,
                ])
        }
    }
}
