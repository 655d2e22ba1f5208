import Foundation
import SpotterModels

/// Exercise and workout templates. Templates follow the same visibility rule as posts (`VisibilityPolicy`):
/// anyone who may see a template may use it.
public protocol TemplateStore: Sendable {
    func insertExercise(_ template: ExerciseTemplateRecord) async throws
    func exercise(_ id: ExerciseTemplateID, viewer: UserID?) async throws -> ExerciseTemplate?
    /// Templates `viewer` may see, newest first; only `author`'s when given.
    func exercises(
        viewer: UserID?, author: UserID?, before: ExerciseTemplateID?, limit: Int
    ) async throws
        -> [ExerciseTemplate]
    func tombstoneExercise(_ id: ExerciseTemplateID, at date: Date) async throws
    /// Replaces a template's name, equipment, muscle groups, format and visibility (a newer version of a
    /// template that came from Nostr); a deleted template stays as it was.
    func updateExercise(_ template: ExerciseTemplateRecord) async throws

    func insertWorkoutTemplate(_ template: WorkoutTemplateRecord) async throws
    /// The template with `uses_count`: workouts logged from it that `viewer` may see.
    func workoutTemplate(_ id: WorkoutTemplateID, viewer: UserID?) async throws -> WorkoutTemplate?
    func workoutTemplates(
        viewer: UserID?, author: UserID?, before: WorkoutTemplateID?, limit: Int
    ) async throws
        -> [WorkoutTemplate]
    func tombstoneWorkoutTemplate(_ id: WorkoutTemplateID, at date: Date) async throws
    /// Replaces a template's name, type, description, exercises and visibility; a deleted template stays as
    /// it was.
    func updateWorkoutTemplate(_ template: WorkoutTemplateRecord) async throws
}

public struct ExerciseTemplateRecord: Sendable, Equatable {
    public var id: ExerciseTemplateID
    public var authorID: UserID
    public var name: String
    public var equipment: String?
    public var muscleGroups: [String]
    public var format: [String]
    public var visibility: Visibility
    public var createdAt: Date

    public init(
        id: ExerciseTemplateID, authorID: UserID, name: String, equipment: String?, muscleGroups: [String],
        format: [String], visibility: Visibility, createdAt: Date
    ) {
        self.id = id
        self.authorID = authorID
        self.name = name
        self.equipment = equipment
        self.muscleGroups = muscleGroups
        self.format = format
        self.visibility = visibility
        self.createdAt = createdAt
    }
}

public struct WorkoutTemplateRecord: Sendable, Equatable {
    public var id: WorkoutTemplateID
    public var authorID: UserID
    public var name: String
    public var type: WorkoutType
    public var description: String
    public var exercises: [TemplateExercise]
    public var visibility: Visibility
    public var createdAt: Date

    public init(
        id: WorkoutTemplateID, authorID: UserID, name: String, type: WorkoutType, description: String,
        exercises: [TemplateExercise], visibility: Visibility, createdAt: Date
    ) {
        self.id = id
        self.authorID = authorID
        self.name = name
        self.type = type
        self.description = description
        self.exercises = exercises
        self.visibility = visibility
        self.createdAt = createdAt
    }
}
