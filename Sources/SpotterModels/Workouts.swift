import Foundation

/// The kinds of workout NIP-101e names.
public enum WorkoutType: String, Codable, Sendable, CaseIterable {
    case strength, circuit, emom, amrap, cardio
}

/// What a set was for; only `normal`, `drop` and `failure` sets count towards personal records.
public enum SetType: String, Codable, Sendable, CaseIterable {
    case warmup, normal, drop, failure
}

/// One set: weight in kilograms (whatever the user displays), reps, and optionally the effort felt (RPE 1–10).
public struct WorkoutSet: Codable, Sendable, Equatable {
    public var weightKg: Double
    public var reps: Int
    public var rpe: Double?
    public var setType: SetType

    public init(weightKg: Double, reps: Int, rpe: Double? = nil, setType: SetType = .normal) {
        self.weightKg = weightKg
        self.reps = reps
        self.rpe = rpe
        self.setType = setType
    }

    enum CodingKeys: String, CodingKey {
        case weightKg = "weight_kg"
        case reps, rpe
        case setType = "set_type"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        weightKg = try container.decode(Double.self, forKey: .weightKg)
        reps = try container.decode(Int.self, forKey: .reps)
        rpe = try container.decodeIfPresent(Double.self, forKey: .rpe)
        setType = try container.decodeIfPresent(SetType.self, forKey: .setType) ?? .normal
    }
}

/// Distance and time for cardio work.
public struct CardioMetrics: Codable, Sendable, Equatable {
    public var distanceM: Double?
    public var durationS: Int

    public init(distanceM: Double?, durationS: Int) {
        self.distanceM = distanceM
        self.durationS = durationS
    }

    enum CodingKeys: String, CodingKey {
        case distanceM = "distance_m"
        case durationS = "duration_s"
    }
}

/// One exercise of a workout: either sets, or cardio metrics.
public struct ExerciseEntry: Codable, Sendable, Equatable {
    /// The exercise's name as shown; personal records are kept per name, ignoring case.
    public var name: String
    public var exerciseID: ExerciseTemplateID?
    public var sets: [WorkoutSet]?
    public var cardio: CardioMetrics?

    public init(
        name: String, exerciseID: ExerciseTemplateID? = nil, sets: [WorkoutSet]? = nil, cardio: CardioMetrics? = nil
    ) {
        self.name = name
        self.exerciseID = exerciseID
        self.sets = sets
        self.cardio = cardio
    }

    enum CodingKeys: String, CodingKey {
        case name
        case exerciseID = "exercise_id"
        case sets, cardio
    }
}

/// A workout record (NIP-101e kind 1301): what was done, when.
public struct WorkoutRecord: Codable, Sendable, Equatable {
    public var title: String
    public var type: WorkoutType
    /// When it was done: its start, or the one moment given when nobody said how long it took.
    public var startTime: Date
    /// When it ended, only when someone said (times, or minutes): a workout without one has no duration, rather
    /// than one nobody typed. Every workout stored before issue 38 has one.
    public var endTime: Date?
    public var exercises: [ExerciseEntry]
    public var completed: Bool
    public var templateID: WorkoutTemplateID?
    public var notes: String?

    public init(
        title: String, type: WorkoutType, startTime: Date, endTime: Date? = nil, exercises: [ExerciseEntry],
        completed: Bool = true, templateID: WorkoutTemplateID? = nil, notes: String? = nil
    ) {
        self.title = title
        self.type = type
        self.startTime = startTime
        self.endTime = endTime
        self.exercises = exercises
        self.completed = completed
        self.templateID = templateID
        self.notes = notes
    }

    enum CodingKeys: String, CodingKey {
        case title, type
        case startTime = "start_time"
        case endTime = "end_time"
        case exercises, completed
        case templateID = "template_id"
        case notes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        type = try container.decode(WorkoutType.self, forKey: .type)
        startTime = try container.decode(Date.self, forKey: .startTime)
        endTime = try container.decodeIfPresent(Date.self, forKey: .endTime)
        exercises = try container.decode([ExerciseEntry].self, forKey: .exercises)
        completed = try container.decodeIfPresent(Bool.self, forKey: .completed) ?? true
        templateID = try container.decodeIfPresent(WorkoutTemplateID.self, forKey: .templateID)
        notes = try container.decodeIfPresent(String.self, forKey: .notes)
    }

    /// How long it took, in seconds, when that is known: `nil` without an end time, or with one at (or before)
    /// the start, which says nothing about how long.
    public var duration: TimeInterval? {
        guard let endTime, endTime > startTime else { return nil }
        return endTime.timeIntervalSince(startTime)
    }

    /// Total weight moved: Σ weight × reps over every set but warm-ups.
    public var volumeKg: Double {
        exercises.reduce(0) { total, exercise in
            total
                + (exercise.sets ?? []).filter { $0.setType != .warmup }.reduce(0) {
                    $0 + $1.weightKg * Double($1.reps)
                }
        }
    }
}

/// The kinds of personal record Spotter detects.
public enum RecordKind: String, Codable, Sendable, CaseIterable {
    /// The heaviest weight lifted for at least one rep.
    case heaviestWeight = "heaviest_weight"
    /// The most reps done at a given weight (`weight_kg` says which).
    case mostReps = "most_reps"
    /// The best estimated one-rep max (Epley: weight × (1 + reps / 30)).
    case estimatedOneRepMax = "estimated_1rm"
}

/// A personal record a workout set.
public struct PersonalRecord: Codable, Sendable, Equatable {
    public var exercise: String
    public var kind: RecordKind
    /// kg for weights and 1RM, a count for reps.
    public var value: Double
    /// For `most_reps`: the weight the reps were done at.
    public var weightKg: Double?
    public var postID: PostID?
    public var achievedAt: Date

    public init(
        exercise: String, kind: RecordKind, value: Double, weightKg: Double? = nil, postID: PostID? = nil,
        achievedAt: Date
    ) {
        self.exercise = exercise
        self.kind = kind
        self.value = value
        self.weightKg = weightKg
        self.postID = postID
        self.achievedAt = achievedAt
    }

    enum CodingKeys: String, CodingKey {
        case exercise, kind, value
        case weightKg = "weight_kg"
        case postID = "post_id"
        case achievedAt = "achieved_at"
    }
}

/// `GET /api/v1/users/{username}/progress`: what a profile's charts show, counted in the owner's time zone
/// from the workouts the viewer may see.
public struct ProgressReport: Codable, Sendable, Equatable {
    public struct Week: Codable, Sendable, Equatable {
        /// Monday 00:00 in the owner's time zone.
        public var weekStart: Date
        public var workouts: Int
        public var volumeKg: Double

        public init(weekStart: Date, workouts: Int, volumeKg: Double) {
            self.weekStart = weekStart
            self.workouts = workouts
            self.volumeKg = volumeKg
        }

        enum CodingKeys: String, CodingKey {
            case weekStart = "week_start"
            case workouts
            case volumeKg = "volume_kg"
        }
    }

    public var timeZone: String
    public var weeks: [Week]
    /// Consecutive days with a workout, ending today (or yesterday: a streak lasts until the day is over).
    public var currentStreak: Int
    public var longestStreak: Int
    /// The standing records: the latest of each kind per exercise (and per weight for most reps).
    public var personalRecords: [PersonalRecord]
    /// The person's main lifts (those done most often in the weeks shown), each with its estimated one-rep max
    /// per workout over those weeks; empty before any lift with weight. Absent from older servers' reports.
    public var exercises: [ExerciseProgress]

    public init(
        timeZone: String, weeks: [Week], currentStreak: Int, longestStreak: Int, personalRecords: [PersonalRecord],
        exercises: [ExerciseProgress] = []
    ) {
        self.timeZone = timeZone
        self.weeks = weeks
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.personalRecords = personalRecords
        self.exercises = exercises
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        weeks = try container.decode([Week].self, forKey: .weeks)
        currentStreak = try container.decode(Int.self, forKey: .currentStreak)
        longestStreak = try container.decode(Int.self, forKey: .longestStreak)
        personalRecords = try container.decode([PersonalRecord].self, forKey: .personalRecords)
        exercises = try container.decodeIfPresent([ExerciseProgress].self, forKey: .exercises) ?? []
    }

    enum CodingKeys: String, CodingKey {
        case timeZone = "time_zone"
        case weeks
        case currentStreak = "current_streak"
        case longestStreak = "longest_streak"
        case personalRecords = "personal_records"
        case exercises
    }
}

/// One lift's progress: its best estimated one-rep max (Epley) in each workout that had it, oldest first.
public struct ExerciseProgress: Codable, Sendable, Equatable {
    public struct Point: Codable, Sendable, Equatable {
        public var performedAt: Date
        public var estimatedOneRepMaxKg: Double

        public init(performedAt: Date, estimatedOneRepMaxKg: Double) {
            self.performedAt = performedAt
            self.estimatedOneRepMaxKg = estimatedOneRepMaxKg
        }

        enum CodingKeys: String, CodingKey {
            case performedAt = "performed_at"
            case estimatedOneRepMaxKg = "estimated_1rm_kg"
        }
    }

    /// The name as the person last wrote it.
    public var exercise: String
    public var points: [Point]

    public init(exercise: String, points: [Point]) {
        self.exercise = exercise
        self.points = points
    }
}
