import Foundation
import SpotterCore
import SpotterModels

/// The workout builder as the compose template draws it: from a draft (empty, from a workout template, or as
/// typed before a refusal), each input with its value and, when refused, its message.
struct WorkoutBuilderView {
    /// One input: what it holds and, when something is wrong with it, what to say (`error` is its message's id).
    /// Stored, not computed: Mustache reads values by reflection.
    struct Field {
        let id: String
        let value: String
        let message: String?
        let invalid: Bool
        let error: String?

        init(id: String, value: String, message: String?) {
            self.id = id
            self.value = value
            self.message = message
            invalid = message != nil
            error = message == nil ? nil : "\(id)-error"
        }
    }

    struct Exercise {
        let index: Int
        let number: Int
        let name: Field
        let distance: Field
        let time: Field
        let distanceUnits: [Choice]
        let pace: String
        let sets: [SetRow]
    }

    struct SetRow {
        let exerciseIndex: Int
        let exerciseNumber: Int
        let number: Int
        let weight: Field
        let reps: Field
        /// A logged set's type and effort, which the builder keeps without inputs for them; a set that is not
        /// a normal one says what it is ("warm-up").
        let setType: String
        let typeLabel: String?
        let rpe: String
    }

    struct Choice {
        let id: String
        let name: String
        let selected: Bool
    }

    struct Summary {
        let input: String?
        let text: String
    }

    let title: Field
    let minutes: Field
    let doneAt: Field
    let latestDoneAt: String
    let text: Field
    let templateID: String?
    let types: [Choice]
    let visibilities: [Choice]
    /// The person's groups, the other audiences a post may have (`group:<id>`).
    let groups: [Choice]
    let hasGroups: Bool
    /// The audience select's message, when the choice was refused.
    let audience: Field
    let isCardio: Bool
    let weightUnit: String
    let weightUnitName: String
    let exercises: [Exercise]
    let templates: [Choice]
    let hasTemplates: Bool
    let summary: [Summary]
    let hasSummary: Bool

    init(
        draft: WorkoutDraft, problems: [WorkoutForm.Problem], units: Units, timeZone: TimeZone, now: Date,
        available: [WorkoutTemplate], groups: [GroupSummary] = []
    ) {
        let workout = draft.kind == "workout"
        var messages: [String: String] = [:]
        for problem in problems where !problem.input.isEmpty && messages[problem.input] == nil {
            messages[problem.input] = problem.detail
        }
        func field(_ id: String, _ value: String) -> Field { Field(id: id, value: value, message: messages[id]) }
        title = field("title", draft.title)
        minutes = field("duration", draft.minutes)
        doneAt = field("done-at", draft.doneAt.isEmpty ? WorkoutDraft.localText(now, in: timeZone) : draft.doneAt)
        latestDoneAt = WorkoutDraft.localText(PostRules.latestDoneAt(now: now), in: timeZone)
        text = field("workout-text", workout ? draft.text : "")
        templateID = draft.templateID
        types = WorkoutType.allCases.map { Choice(id: $0.rawValue, name: $0.label, selected: $0 == draft.type) }
        visibilities = WebFormat.visibilities(selected: workout ? draft.visibility : nil)
        self.groups = WebFormat.groupAudiences(groups, selected: workout ? draft.groupID : nil)
        hasGroups = !groups.isEmpty
        audience = field("workout-visibility", "")
        isCardio = draft.type == .cardio
        weightUnit = units.rawValue
        weightUnitName = units == .kg ? "kilograms" : "pounds"
        exercises = draft.exercises.enumerated().map { e, exercise in
            let cardio = CardioMetrics(
                distanceM: CardioText.metres(exercise.distance, unit: exercise.distanceUnit),
                durationS: CardioText.seconds(exercise.time) ?? 0)
            return Exercise(
                index: e, number: e + 1, name: field("exercise-\(e)", exercise.name),
                distance: field("exercise-\(e)-distance", exercise.distance),
                time: field("exercise-\(e)-time", exercise.time),
                distanceUnits: DistanceUnit.allCases.map {
                    Choice(id: $0.rawValue, name: $0.rawValue, selected: $0 == exercise.distanceUnit)
                },
                pace: CardioText.pace(cardio, unit: exercise.distanceUnit) ?? "",
                sets: exercise.sets.enumerated().map { s, set in
                    SetRow(
                        exerciseIndex: e, exerciseNumber: e + 1, number: s + 1,
                        weight: field("set-\(e)-\(s)-weight", set.weight), reps: field("set-\(e)-\(s)-reps", set.reps),
                        setType: set.type.rawValue, typeLabel: set.type.label, rpe: set.rpe)
                })
        }
        templates = available.map {
            Choice(
                id: $0.id.description, name: "\($0.name) · \($0.author.displayName)",
                selected: $0.id.description == draft.templateID)
        }
        hasTemplates = !available.isEmpty
        summary = Self.summary(of: problems)
        hasSummary = !summary.isEmpty
    }

    /// A refused form's summary: each problem, linked to its input when it has one.
    static func summary(of problems: [WorkoutForm.Problem]) -> [Summary] {
        problems.map {
            Summary(
                input: $0.input.isEmpty ? nil : $0.input,
                text: $0.label.isEmpty ? $0.detail : "\($0.label): \($0.detail)")
        }
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}

extension SetType {
    /// What a set that is not a normal one is, as its row in the builder says it; `nil` for a normal set.
    fileprivate var label: String? {
        switch self {
        case .normal: nil
        case .warmup: "warm-up"
        case .drop: "drop set"
        case .failure: "to failure"
        }
    }
}
