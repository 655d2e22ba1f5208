import Foundation
import SpotterModels

/// The best an athlete has done at one exercise so far: what a new workout must beat to set a personal record.
///
/// Kept per ``PersonalRecordDetector/exerciseKey(_:)``, so "Bench Press" and "bench press" share their bests.
public struct ExerciseBests: Sendable, Equatable, Codable {
    /// The heaviest weight lifted for at least one rep.
    public var heaviestKg: Double
    /// The best Epley estimate of a one-rep max (``PersonalRecordDetector/estimatedOneRepMax(weightKg:reps:)``).
    public var bestEstimatedOneRepMaxKg: Double
    /// The most reps done at each weight, keyed by ``PersonalRecordDetector/weightKey(_:)`` (`"100.00"`): a
    /// string, because a `Double` key would make 100 and 100.0000001 two weights, and JSON keys are strings.
    public var mostRepsAtWeight: [String: Int]

    public init(heaviestKg: Double, bestEstimatedOneRepMaxKg: Double, mostRepsAtWeight: [String: Int]) {
        self.heaviestKg = heaviestKg
        self.bestEstimatedOneRepMaxKg = bestEstimatedOneRepMaxKg
        self.mostRepsAtWeight = mostRepsAtWeight
    }

    enum CodingKeys: String, CodingKey {
        case heaviestKg = "heaviest_kg"
        case bestEstimatedOneRepMaxKg = "best_estimated_1rm_kg"
        case mostRepsAtWeight = "most_reps_at_weight"
    }

    /// The better of the two at each measure.
    func merged(with other: ExerciseBests) -> ExerciseBests {
        ExerciseBests(
            heaviestKg: max(heaviestKg, other.heaviestKg),
            bestEstimatedOneRepMaxKg: max(bestEstimatedOneRepMaxKg, other.bestEstimatedOneRepMaxKg),
            mostRepsAtWeight: mostRepsAtWeight.merging(other.mostRepsAtWeight, uniquingKeysWith: max))
    }
}

/// Finds the personal records a workout sets, so the app can celebrate them and the profile can list them.
///
/// A pure function of the workout and the bests before it; the caller loads ``ExerciseBests`` for the workout's
/// exercises, calls ``detect(workout:postID:previous:)``, and stores both results in one transaction.
///
/// ```swift
/// let (records, bests) = PersonalRecordDetector.detect(workout: workout, postID: post.id, previous: stored)
/// ```
public enum PersonalRecordDetector {
    /// The Epley estimate of the most one could lift once: `weight × (1 + reps / 30)`.
    ///
    /// One rep is exactly the weight (the formula alone would add 3%, and a single *is* a one-rep max).
    /// No reps or no weight estimates nothing: 0.
    public static func estimatedOneRepMax(weightKg: Double, reps: Int) -> Double {
        guard reps >= 1, weightKg > 0, weightKg.isFinite else { return 0 }
        return reps == 1 ? weightKg : weightKg * (1 + Double(reps) / 30)
    }

    /// The name records are kept under: trimmed, lowercased, inner whitespace collapsed to one space, so
    /// "Bench  Press " and "bench press" are the same exercise.
    public static func exerciseKey(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// The key of a weight in ``ExerciseBests/mostRepsAtWeight``: kilograms to two decimals (`"102.50"`).
    public static func weightKey(_ weightKg: Double) -> String {
        String(format: "%.2f", weightKg)
    }

    /// The records `workout` sets against `previous`, and the bests after it.
    ///
    /// - Only sets with at least one rep, a weight above zero and a type other than warm-up count: a warm-up
    ///   or a failed attempt is not an achievement.
    /// - An exercise with no previous bests sets its baseline silently: a first logged bench press is not a
    ///   record, or every new user would be buried in them.
    /// - Otherwise a record is announced when the workout's best *beats* the previous best; a tie is not a
    ///   record. `heaviest_weight` and `estimated_1rm` compare across all weights; `most_reps` compares the reps
    ///   at exactly the same weight, and a weight never lifted before sets its baseline silently.
    /// - Each kind is announced at most once per exercise (per weight for `most_reps`), for the best set, even
    ///   when the exercise appears twice in the workout; the name is the first one written.
    /// - Records come in workout order, then `heaviest_weight`, `estimated_1rm`, `most_reps`, then by weight.
    ///
    /// Every record is `achievedAt` the workout's start time, when it was done, not when it was uploaded.
    /// `bests` holds an entry for every exercise of the workout that has bests, before or after it; exercises the
    /// workout does not mention are left out, so the caller upserts them.
    public static func detect(
        workout: WorkoutRecord, postID: PostID?, previous: [String: ExerciseBests]
    ) -> (records: [PersonalRecord], bests: [String: ExerciseBests]) {
        var records: [PersonalRecord] = []
        var bests: [String: ExerciseBests] = [:]
        for exercise in group(workout.exercises) {
            let before = previous[exercise.key]
            guard let session = SessionBests(exercise.sets) else {
                bests[exercise.key] = before
                continue
            }
            guard let before else {
                bests[exercise.key] = session.bests
                continue
            }
            records += session.records(beating: before).map { kind, value, weightKg in
                PersonalRecord(
                    exercise: exercise.name, kind: kind, value: value, weightKg: weightKg, postID: postID,
                    achievedAt: workout.startTime)
            }
            bests[exercise.key] = before.merged(with: session.bests)
        }
        return (records, bests)
    }

    /// Each exercise of `workout` with its best estimated one-rep max from the sets that count for records (as
    /// `detect` counts them), in workout order: what a progress chart plots per lift. Exercises without such a
    /// set (cardio, body weight, warm-ups only) are left out.
    public static func estimatedOneRepMaxes(in workout: WorkoutRecord) -> [(key: String, name: String, kg: Double)] {
        group(workout.exercises).compactMap { exercise in
            let best = exercise.sets.map { estimatedOneRepMax(weightKg: $0.weightKg, reps: $0.reps) }.max() ?? 0
            return best > 0 ? (exercise.key, exercise.name, best) : nil
        }
    }

    /// How much a new best must exceed the old one by, so floating-point noise is a tie rather than a record:
    /// 100 kg × 10 and 125 kg × 2 both estimate 133⅓ kg, but in `Double` the second comes out a hair higher.
    static let tolerance = 1e-9

    /// Whether a set counts towards records.
    static func counts(_ set: WorkoutSet) -> Bool {
        set.setType != .warmup && set.reps >= 1 && set.weightKg > 0 && set.weightKg.isFinite
    }

    /// The workout's exercises by key, in order of first appearance, with their counted sets.
    private static func group(_ exercises: [ExerciseEntry]) -> [(key: String, name: String, sets: [WorkoutSet])] {
        var grouped: [(key: String, name: String, sets: [WorkoutSet])] = []
        var positions: [String: Int] = [:]
        for exercise in exercises {
            let key = exerciseKey(exercise.name)
            let counted = (exercise.sets ?? []).filter(counts)
            if let position = positions[key] {
                grouped[position].sets += counted
            } else {
                positions[key] = grouped.count
                grouped.append((key, exercise.name, counted))
            }
        }
        return grouped
    }
}

/// The best of one exercise's counted sets in one workout, remembering the exact weight of each best set.
private struct SessionBests {
    var heaviestKg: Double
    var bestEstimateKg: Double
    /// Per weight key: the weight as written and the most reps done at it.
    var mostReps: [String: (weightKg: Double, reps: Int)]

    /// Nil when there are no sets: nothing was done that could be a best.
    init?(_ sets: [WorkoutSet]) {
        guard !sets.isEmpty else { return nil }
        heaviestKg = sets.map(\.weightKg).max()!
        bestEstimateKg = sets.map { PersonalRecordDetector.estimatedOneRepMax(weightKg: $0.weightKg, reps: $0.reps) }
            .max()!
        mostReps = [:]
        for set in sets {
            let key = PersonalRecordDetector.weightKey(set.weightKg)
            if set.reps > mostReps[key]?.reps ?? 0 { mostReps[key] = (set.weightKg, set.reps) }
        }
    }

    var bests: ExerciseBests {
        ExerciseBests(
            heaviestKg: heaviestKg, bestEstimatedOneRepMaxKg: bestEstimateKg,
            mostRepsAtWeight: mostReps.mapValues(\.reps))
    }

    /// The records this session sets against `before`, in announcement order.
    func records(beating before: ExerciseBests) -> [(RecordKind, Double, Double?)] {
        let tolerance = PersonalRecordDetector.tolerance
        var records: [(RecordKind, Double, Double?)] = []
        if heaviestKg > before.heaviestKg + tolerance {
            records.append((.heaviestWeight, heaviestKg, nil))
        }
        if bestEstimateKg > before.bestEstimatedOneRepMaxKg + tolerance {
            records.append((.estimatedOneRepMax, bestEstimateKg, nil))
        }
        for (key, best) in mostReps.sorted(by: { $0.value.weightKg < $1.value.weightKg }) {
            if let previousReps = before.mostRepsAtWeight[key], best.reps > previousReps {
                records.append((.mostReps, Double(best.reps), best.weightKg))
            }
        }
        return records
    }
}
