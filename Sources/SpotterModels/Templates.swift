import Foundation

/// An exercise template (NIP-101e kind 33401): what an exercise is and how its sets are recorded.
public struct ExerciseTemplate: Codable, Sendable, Equatable {
    public var id: ExerciseTemplateID
    public var author: AuthorSummary
    public var name: String
    public var equipment: String?
    public var muscleGroups: [String]
    /// The set fields this exercise records, e.g. `["weight", "reps", "rpe", "set_type"]`.
    public var format: [String]
    public var visibility: Visibility
    public var createdAt: Date

    public init(
        id: ExerciseTemplateID, author: AuthorSummary, name: String, equipment: String?, muscleGroups: [String],
        format: [String], visibility: Visibility, createdAt: Date
    ) {
        self.id = id
        self.author = author
        self.name = name
        self.equipment = equipment
        self.muscleGroups = muscleGroups
        self.format = format
        self.visibility = visibility
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, author, name, equipment
        case muscleGroups = "muscle_groups"
        case format, visibility
        case createdAt = "created_at"
    }
}

/// `POST /api/v1/exercises`.
public struct CreateExerciseTemplateRequest: Codable, Sendable, Equatable {
    public var name: String
    public var equipment: String?
    public var muscleGroups: [String]?
    public var format: [String]?
    public var visibility: Visibility?

    public init(
        name: String, equipment: String? = nil, muscleGroups: [String]? = nil, format: [String]? = nil,
        visibility: Visibility? = nil
    ) {
        self.name = name
        self.equipment = equipment
        self.muscleGroups = muscleGroups
        self.format = format
        self.visibility = visibility
    }

    enum CodingKeys: String, CodingKey {
        case name, equipment
        case muscleGroups = "muscle_groups"
        case format, visibility
    }
}

/// A target set of a workout template; both values optional ("5 reps", "100 kg for 5").
public struct TargetSet: Codable, Sendable, Equatable {
    public var weightKg: Double?
    public var reps: Int?

    public init(weightKg: Double? = nil, reps: Int? = nil) {
        self.weightKg = weightKg
        self.reps = reps
    }

    enum CodingKeys: String, CodingKey {
        case weightKg = "weight_kg"
        case reps
    }
}

/// One exercise of a workout template.
public struct TemplateExercise: Codable, Sendable, Equatable {
    public var name: String
    public var exerciseID: ExerciseTemplateID?
    public var targetSets: [TargetSet]

    public init(name: String, exerciseID: ExerciseTemplateID? = nil, targetSets: [TargetSet]) {
        self.name = name
        self.exerciseID = exerciseID
        self.targetSets = targetSets
    }

    enum CodingKeys: String, CodingKey {
        case name
        case exerciseID = "exercise_id"
        case targetSets = "target_sets"
    }
}

/// A workout template (NIP-101e kind 33402), and how many logged workouts used it (its lineage).
public struct WorkoutTemplate: Codable, Sendable, Equatable {
    public var id: WorkoutTemplateID
    public var author: AuthorSummary
    public var name: String
    public var type: WorkoutType
    public var description: String
    public var exercises: [TemplateExercise]
    public var visibility: Visibility
    /// Workouts logged from this template that the viewer may see.
    public var usesCount: Int
    public var createdAt: Date

    public init(
        id: WorkoutTemplateID, author: AuthorSummary, name: String, type: WorkoutType, description: String,
        exercises: [TemplateExercise], visibility: Visibility, usesCount: Int, createdAt: Date
    ) {
        self.id = id
        self.author = author
        self.name = name
        self.type = type
        self.description = description
        self.exercises = exercises
        self.visibility = visibility
        self.usesCount = usesCount
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, author, name, type, description, exercises, visibility
        case usesCount = "uses_count"
        case createdAt = "created_at"
    }
}

/// `POST /api/v1/workout-templates`.
public struct CreateWorkoutTemplateRequest: Codable, Sendable, Equatable {
    public var name: String
    public var type: WorkoutType
    public var description: String?
    public var exercises: [TemplateExercise]
    public var visibility: Visibility?

    public init(
        name: String, type: WorkoutType, description: String? = nil, exercises: [TemplateExercise],
        visibility: Visibility? = nil
    ) {
        self.name = name
        self.type = type
        self.description = description
        self.exercises = exercises
        self.visibility = visibility
    }
}
