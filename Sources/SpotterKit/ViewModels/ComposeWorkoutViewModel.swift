import Foundation
import Observation
import SpotterModels

/// Builds a workout to log, from scratch or from a template, and posts it through the outbox.
///
/// ```swift
/// let model = ComposeWorkoutViewModel(client: client, outbox: outbox)
/// await model.start(from: template.id)          // exercises and target sets filled in
/// model.addSet(to: 0, weightKg: 100, reps: 5)
/// let posted = await model.publish()            // false: see model.errors, field by field
/// ```
///
/// A run is one cardio exercise:
///
/// ```swift
/// model.type = .cardio
/// model.addExercise("Run")
/// model.setCardio(for: 0, distance: 3.1, unit: .mi, durationS: 30 * 60 + 45)
/// model.pace(for: 0, unit: .mi)                 // "9:55 /mi"
/// ```
@MainActor
@Observable
public final class ComposeWorkoutViewModel {
    public struct Exercise: Sendable, Equatable {
        public var name: String
        public var sets: [WorkoutSet]
        /// Distance and time, for cardio work.
        public var cardio: CardioMetrics?

        public init(name: String, sets: [WorkoutSet] = [], cardio: CardioMetrics? = nil) {
            self.name = name
            self.sets = sets
            self.cardio = cardio
        }
    }

    public var title = ""
    public var type: WorkoutType = .strength
    public var text = ""
    public var visibility: Visibility = .public
    public var startTime: Date
    public var endTime: Date
    public var exercises: [Exercise] = []
    public private(set) var templateID: WorkoutTemplateID?
    /// What the server (or the form) refused, by field (`workout.exercises[0].sets[1].reps`, …).
    public private(set) var errors: [FieldError] = []
    /// True once the workout is posted, or stored in the outbox to go out when online.
    public private(set) var isPublished = false

    private let client: SpotterClient
    private let outbox: ActionQueue?

    public init(client: SpotterClient, outbox: ActionQueue? = nil, now: Date = Date()) {
        self.client = client
        self.outbox = outbox
        startTime = now.addingTimeInterval(-3600)
        endTime = now
    }

    /// Fills the form from a template: its name, type and exercises, each with its target sets.
    public func start(from id: WorkoutTemplateID) async {
        do {
            let template = try await client.workoutTemplate(id)
            templateID = template.id
            title = template.name
            type = template.type
            exercises = template.exercises.map { exercise in
                Exercise(
                    name: exercise.name,
                    sets: exercise.targetSets.map { WorkoutSet(weightKg: $0.weightKg ?? 0, reps: $0.reps ?? 0) })
            }
            errors = []
        } catch {
            errors = [FieldError(field: "template", detail: FeedViewModel.message(error))]
        }
    }

    public func addExercise(_ name: String) { exercises.append(Exercise(name: name)) }

    public func addSet(to exercise: Int, weightKg: Double, reps: Int, setType: SetType = .normal) {
        guard exercises.indices.contains(exercise) else { return }
        exercises[exercise].sets.append(WorkoutSet(weightKg: weightKg, reps: reps, setType: setType))
    }

    public func removeExercise(_ exercise: Int) {
        guard exercises.indices.contains(exercise) else { return }
        exercises.remove(at: exercise)
    }

    /// Sets an exercise's distance (in `unit`, stored in metres) and time; `nil` distance for time alone.
    public func setCardio(for exercise: Int, distance: Double?, unit: DistanceUnit = .km, durationS: Int) {
        guard exercises.indices.contains(exercise) else { return }
        exercises[exercise].cardio = CardioMetrics(distanceM: distance.map { $0 * unit.metres }, durationS: durationS)
    }

    /// An exercise's pace as shown, "5:55 /km"; `nil` without both a distance and a time.
    public func pace(for exercise: Int, unit: DistanceUnit = .km) -> String? {
        guard exercises.indices.contains(exercise), let cardio = exercises[exercise].cardio else { return nil }
        return CardioText.pace(cardio, unit: unit)
    }

    public func removeSet(_ set: Int, from exercise: Int) {
        guard exercises.indices.contains(exercise), exercises[exercise].sets.indices.contains(set) else { return }
        exercises[exercise].sets.remove(at: set)
    }

    /// The request this form makes.
    public var request: CreatePostRequest {
        CreatePostRequest(
            kind: .workout, text: text, visibility: visibility,
            workout: WorkoutRecord(
                title: title, type: type, startTime: startTime, endTime: endTime,
                exercises: exercises.map {
                    ExerciseEntry(
                        name: $0.name, sets: $0.cardio != nil && $0.sets.isEmpty ? nil : $0.sets, cardio: $0.cardio)
                }, templateID: templateID))
    }

    /// Posts the workout. Returns whether it was posted or queued; when refused, `errors` names each field.
    @discardableResult
    public func publish() async -> Bool {
        let request = request
        do {
            if let outbox {
                let queued = try await outbox.enqueue(.createPost(request))
                for outcome in await outbox.drain() {
                    guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                    try? await outbox.discard(refused.id)
                    errors = problem.errors ?? [FieldError(field: "workout", detail: problem.detail ?? problem.title)]
                    return false
                }
            } else {
                _ = try await client.createPost(request)
            }
            errors = []
            isPublished = true
            return true
        } catch SpotterClientError.problem(let problem) {
            errors = problem.errors ?? [FieldError(field: "workout", detail: problem.detail ?? problem.title)]
        } catch {
            errors = [FieldError(field: "workout", detail: FeedViewModel.message(error))]
        }
        return false
    }
}
