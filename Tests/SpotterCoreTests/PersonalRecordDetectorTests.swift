import Foundation
import SpotterCore
import SpotterModels
import Testing

@Suite("Personal record detector")
struct PersonalRecordDetectorTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func workout(_ exercises: ExerciseEntry...) -> WorkoutRecord {
        WorkoutRecord(
            title: "Push", type: .strength, startTime: start, endTime: start + 3600, exercises: exercises)
    }

    static func exercise(_ name: String, _ sets: WorkoutSet...) -> ExerciseEntry {
        ExerciseEntry(name: name, sets: sets)
    }

    static func set(_ weightKg: Double, _ reps: Int, _ type: SetType = .normal) -> WorkoutSet {
        WorkoutSet(weightKg: weightKg, reps: reps, setType: type)
    }

    /// Bests high enough that only the measure under test can be beaten.
    static func bests(heaviest: Double = 500, estimate: Double = 500, reps: [String: Int] = [:]) -> ExerciseBests {
        ExerciseBests(heaviestKg: heaviest, bestEstimatedOneRepMaxKg: estimate, mostRepsAtWeight: reps)
    }

    @Test("the Epley estimate is weight × (1 + reps / 30), exactly the weight for one rep, 0 for nothing")
    func epley() {
        #expect(PersonalRecordDetector.estimatedOneRepMax(weightKg: 90, reps: 10) == 120)
        #expect(PersonalRecordDetector.estimatedOneRepMax(weightKg: 100, reps: 1) == 100)
        #expect(PersonalRecordDetector.estimatedOneRepMax(weightKg: 100, reps: 0) == 0)
        #expect(PersonalRecordDetector.estimatedOneRepMax(weightKg: 100, reps: -3) == 0)
        #expect(PersonalRecordDetector.estimatedOneRepMax(weightKg: 0, reps: 5) == 0)
        #expect(PersonalRecordDetector.estimatedOneRepMax(weightKg: -20, reps: 5) == 0)
    }

    @Test("exercise keys ignore case, surrounding space and repeated inner space")
    func exerciseKeys() {
        #expect(PersonalRecordDetector.exerciseKey("  Bench \t Press\n") == "bench press")
        #expect(
            PersonalRecordDetector.exerciseKey("Overhead Press")
                == PersonalRecordDetector.exerciseKey("overhead  press"))
    }

    @Test("weight keys have two decimals")
    func weightKeys() {
        #expect(PersonalRecordDetector.weightKey(100) == "100.00")
        #expect(PersonalRecordDetector.weightKey(102.5) == "102.50")
        #expect(PersonalRecordDetector.weightKey(1.25) == "1.25")
    }

    @Test("an exercise done for the first time sets its baseline silently")
    func firstTimeIsBaseline() {
        // Given no bests for the bench press
        let workout = Self.workout(Self.exercise("Bench Press", Self.set(100, 5), Self.set(80, 10), Self.set(80, 8)))
        // When
        let (records, bests) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: [:])
        // Then
        #expect(records.isEmpty)
        #expect(
            bests == [
                "bench press": ExerciseBests(
                    heaviestKg: 100, bestEstimatedOneRepMaxKg: 100 * (1 + 5.0 / 30),
                    mostRepsAtWeight: ["100.00": 5, "80.00": 10])
            ])
    }

    @Test("warm-up sets, sets without reps and sets without weight count for nothing")
    func uncountedSets() {
        // Given
        let previous = ["squat": Self.bests(heaviest: 100, estimate: 120, reps: ["100.00": 5, "20.00": 10])]
        let workout = Self.workout(
            Self.exercise(
                "Squat", Self.set(140, 3, .warmup), Self.set(150, 0), Self.set(0, 30), Self.set(20, 15, .warmup),
                Self.set(100, 5)))
        // When
        let (records, bests) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then
        #expect(records.isEmpty)
        #expect(bests == previous)
    }

    @Test("drop and failure sets count")
    func dropAndFailureCount() {
        // Given
        let previous = ["squat": Self.bests(heaviest: 100)]
        let workout = Self.workout(Self.exercise("Squat", Self.set(110, 1, .failure), Self.set(105, 1, .drop)))
        // When
        let (records, _) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then
        #expect(records.map(\.kind) == [.heaviestWeight])
        #expect(records.first?.value == 110)
    }

    @Test("a heavier set than ever is a heaviest-weight record, stamped with the workout's start and post")
    func heaviestWeight() {
        // Given
        let post = PostID.generate(at: Self.start)
        let previous = ["deadlift": Self.bests(heaviest: 180)]
        let workout = Self.workout(Self.exercise("Deadlift", Self.set(185, 1), Self.set(190, 1), Self.set(170, 3)))
        // When
        let (records, bests) = PersonalRecordDetector.detect(workout: workout, postID: post, previous: previous)
        // Then
        #expect(
            records == [
                PersonalRecord(
                    exercise: "Deadlift", kind: .heaviestWeight, value: 190, postID: post, achievedAt: Self.start)
            ])
        #expect(bests["deadlift"]?.heaviestKg == 190)
    }

    @Test("a better estimated one-rep max is a record even at a lighter weight")
    func estimatedOneRepMax() {
        // Given a best estimate of 116.67 kg from 100 kg × 5
        let previous = ["bench press": Self.bests(heaviest: 100, estimate: 100 * (1 + 5.0 / 30))]
        // When 90 kg × 12 estimates 126 kg
        let workout = Self.workout(Self.exercise("Bench Press", Self.set(90, 12)))
        let (records, bests) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then
        #expect(records.map(\.kind) == [.estimatedOneRepMax])
        #expect(records.first?.value == 90 * (1 + 12.0 / 30))
        #expect(records.first?.weightKg == nil)
        #expect(bests["bench press"]?.heaviestKg == 100)
        #expect(bests["bench press"]?.bestEstimatedOneRepMaxKg == 90 * (1 + 12.0 / 30))
    }

    @Test("more reps than ever at the same weight is a most-reps record; a new weight is a silent baseline")
    func mostRepsPerWeight() {
        // Given
        let previous = ["row": Self.bests(reps: ["100.00": 5, "80.00": 8])]
        let workout = Self.workout(
            Self.exercise("Row", Self.set(100, 6), Self.set(100, 7), Self.set(80, 8), Self.set(60, 12)))
        // When
        let (records, bests) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then one record, for the best set at 100 kg; 80 kg is a tie and 60 kg is new
        #expect(
            records == [
                PersonalRecord(exercise: "Row", kind: .mostReps, value: 7, weightKg: 100, achievedAt: Self.start)
            ])
        #expect(bests["row"]?.mostRepsAtWeight == ["100.00": 7, "80.00": 8, "60.00": 12])
    }

    @Test("doing exactly as well as before is a tie, not a record")
    func tiesAreNotRecords() {
        // Given
        let workout = Self.workout(Self.exercise("Squat", Self.set(120, 5), Self.set(100, 8)))
        let (_, first) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: [:])
        // When the same workout is done again
        let (records, second) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: first)
        // Then
        #expect(records.isEmpty)
        #expect(second == first)
    }

    @Test("an estimate equal but for floating-point noise is a tie")
    func floatingPointTie() {
        // Given 100 kg × 10, which estimates 133⅓ kg as 133.33333333333331
        let previous = ["squat": Self.bests(heaviest: 125, estimate: 100 * (1 + 10.0 / 30))]
        // When 125 kg × 2, which estimates 133⅓ kg as 133.33333333333334
        let workout = Self.workout(Self.exercise("Squat", Self.set(125, 2)))
        let (records, _) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then
        #expect(PersonalRecordDetector.estimatedOneRepMax(weightKg: 125, reps: 2) > 100 * (1 + 10.0 / 30))
        #expect(records.isEmpty)
    }

    @Test("records are kept per exercise ignoring case, and named as written in the workout")
    func caseInsensitiveExercise() {
        // Given
        let previous = ["bench press": Self.bests(heaviest: 100)]
        let workout = Self.workout(Self.exercise("BENCH  press", Self.set(102.5, 1)))
        // When
        let (records, bests) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then
        #expect(records.map(\.exercise) == ["BENCH  press"])
        #expect(Array(bests.keys) == ["bench press"])
    }

    @Test("an exercise listed twice in a workout sets each record once, for its best set, under its first name")
    func exerciseListedTwice() {
        // Given
        let previous = ["squat": Self.bests(heaviest: 100, reps: ["100.00": 3])]
        let workout = Self.workout(
            Self.exercise("Squat", Self.set(105, 1), Self.set(100, 4)),
            Self.exercise("Bench Press", Self.set(60, 5)),
            Self.exercise("squat", Self.set(110, 1), Self.set(100, 5)))
        // When
        let (records, _) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then
        #expect(
            records == [
                PersonalRecord(exercise: "Squat", kind: .heaviestWeight, value: 110, achievedAt: Self.start),
                PersonalRecord(exercise: "Squat", kind: .mostReps, value: 5, weightKg: 100, achievedAt: Self.start),
            ])
    }

    @Test("records come by exercise order, then heaviest weight, estimated 1RM, most reps, then weight ascending")
    func recordOrder() {
        // Given
        let previous = [
            // 102.5 kg × 2 estimates 109.3 kg, beating 105.
            "squat": Self.bests(heaviest: 100, estimate: 105, reps: ["60.00": 10, "80.00": 5]),
            "bench press": Self.bests(heaviest: 60, estimate: 500, reps: ["50.00": 8]),
        ]
        let workout = Self.workout(
            Self.exercise("Squat", Self.set(102.5, 2), Self.set(80, 6), Self.set(60, 12)),
            Self.exercise("Bench Press", Self.set(62.5, 1), Self.set(50, 9)))
        // When
        let (records, _) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then
        #expect(records.map(\.exercise) == ["Squat", "Squat", "Squat", "Squat", "Bench Press", "Bench Press"])
        #expect(
            records.map(\.kind) == [
                .heaviestWeight, .estimatedOneRepMax, .mostReps, .mostReps, .heaviestWeight, .mostReps,
            ])
        #expect(records.map(\.weightKg) == [nil, nil, 60, 80, nil, 50])
    }

    @Test("the bests returned are the workout's exercises that have bests, before or after it")
    func returnedBests() {
        // Given
        let squat = Self.bests(heaviest: 100)
        let previous = ["squat": squat, "deadlift": Self.bests(heaviest: 200)]
        let workout = Self.workout(
            Self.exercise("Squat", Self.set(60, 5, .warmup)),
            Self.exercise("Plank", Self.set(0, 1)),
            ExerciseEntry(name: "Rowing", cardio: CardioMetrics(distanceM: 2000, durationS: 480)),
            Self.exercise("Curl", Self.set(15, 12)))
        // When
        let (_, bests) = PersonalRecordDetector.detect(workout: workout, postID: nil, previous: previous)
        // Then the squat keeps its bests, the deadlift is not touched, and only the curl is new
        #expect(Set(bests.keys) == ["squat", "curl"])
        #expect(bests["squat"] == squat)
    }

    @Test("bests are stored with snake_case keys")
    func bestsJSON() throws {
        // Given
        let json = #"{"heaviest_kg":100,"best_estimated_1rm_kg":120,"most_reps_at_weight":{"100.00":5}}"#
        // When
        let bests = try JSONDecoder().decode(ExerciseBests.self, from: Data(json.utf8))
        // Then
        #expect(bests == ExerciseBests(heaviestKg: 100, bestEstimatedOneRepMaxKg: 120, mostRepsAtWeight: ["100.00": 5]))
        #expect(try JSONDecoder().decode(ExerciseBests.self, from: JSONEncoder().encode(bests)) == bests)
    }
}
