import Foundation
import SpotterModels

extension NIP101e {
    /// An exercise template read from a kind 33401 event.
    public struct ExerciseTemplateEvent: Sendable, Equatable {
        public var identifier: String
        /// The template as Spotter would be asked to make it (public: the draft's templates are for sharing).
        public var template: CreateExerciseTemplateRequest
        /// The content: how to do the exercise.
        public var instructions: String
        public var difficulty: String?

        public init(
            identifier: String, template: CreateExerciseTemplateRequest, instructions: String, difficulty: String?
        ) {
            self.identifier = identifier
            self.template = template
            self.instructions = instructions
            self.difficulty = difficulty
        }
    }

    /// A workout template read from a kind 33402 event.
    public struct WorkoutTemplateEvent: Sendable, Equatable {
        public var identifier: String
        public var template: CreateWorkoutTemplateRequest
        public var hashtags: [String]

        public init(identifier: String, template: CreateWorkoutTemplateRequest, hashtags: [String]) {
            self.identifier = identifier
            self.template = template
            self.hashtags = hashtags
        }
    }

    // MARK: Exercise templates (33401)

    /// The tags and content of a kind 33401 event for an exercise template: `title`, `format` with its
    /// `format_units`, `equipment` when known, `difficulty` when given, and its muscle groups as `t` tags.
    /// Spotter's default format (weight, reps, set type) is written out when the template leaves it unsaid.
    public static func exerciseTemplateEvent(
        _ template: CreateExerciseTemplateRequest, identifier: String, instructions: String = "",
        difficulty: String? = nil
    ) -> (tags: [[String]], content: String) {
        let format = template.format ?? ["weight", "reps", "set_type"]
        var tags: [[String]] = [
            ["d", identifier],
            ["title", template.name],
            ["format"] + format,
            ["format_units"] + format.map { units[$0] ?? "" },
        ]
        if let equipment = template.equipment { tags.append(["equipment", equipment]) }
        if let difficulty { tags.append(["difficulty", difficulty]) }
        for group in template.muscleGroups ?? [] { tags.append(["t", group]) }
        return (tags, instructions)
    }

    /// The event of one of Spotter's exercise templates: its id is the `d` tag.
    public static func exerciseTemplateEvent(_ template: ExerciseTemplate) -> (tags: [[String]], content: String) {
        exerciseTemplateEvent(
            CreateExerciseTemplateRequest(
                name: template.name, equipment: template.equipment, muscleGroups: template.muscleGroups,
                format: template.format, visibility: .public),
            identifier: template.id.description)
    }

    /// Reads a kind 33401 event. Format parameters Spotter does not record (heart rate, …) are left out; a
    /// template that lists none it records keeps Spotter's default.
    public static func exerciseTemplate(from event: NostrEvent) throws -> ExerciseTemplateEvent {
        guard event.kind == .exerciseTemplate else {
            throw NIP101eError.wrongKind(expected: .exerciseTemplate, found: event.kind)
        }
        guard let title = value("title", in: event) else { throw NIP101eError.missingTag("title") }
        let format = tags("format", in: event).first?.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { units[$0] != nil }
        let template = CreateExerciseTemplateRequest(
            name: title, equipment: value("equipment", in: event), muscleGroups: hashtags(in: event),
            format: format?.isEmpty == false ? format : nil, visibility: .public)
        return ExerciseTemplateEvent(
            identifier: event.dTag, template: template, instructions: event.content,
            difficulty: value("difficulty", in: event))
    }

    // MARK: Workout templates (33402)

    /// The tags and content of a kind 33402 event for a workout template: one `exercise` tag per target set
    /// (`["exercise", ref, hint, "<weight kg>", "<reps>", "", "normal"]`, empty where the template leaves the
    /// value to the person), or one tag of empty values for an exercise without target sets. References are
    /// made as for records (`workoutRecordEvent`).
    public static func workoutTemplateEvent(
        _ template: CreateWorkoutTemplateRequest, identifier: String, author: NostrPublicKey,
        relayHint: String = "", hashtags: [String] = [],
        exerciseReference: (TemplateExercise) -> Reference? = { _ in nil }
    ) -> (tags: [[String]], content: String) {
        var tags: [[String]] = [["d", identifier], ["title", template.name], ["type", template.type.rawValue]]
        for exercise in template.exercises {
            let reference =
                exerciseReference(exercise)
                ?? Reference(
                    kind: .exerciseTemplate, pubkey: author,
                    identifier: exercise.exerciseID?.description ?? exercise.name)
            if exercise.targetSets.isEmpty {
                tags.append(["exercise", reference.description, relayHint, "", "", "", ""])
            }
            for set in exercise.targetSets {
                tags.append([
                    "exercise", reference.description, relayHint, set.weightKg.map(text) ?? "",
                    set.reps.map(String.init) ?? "", "", "normal",
                ])
            }
        }
        for tag in hashtags { tags.append(["t", tag]) }
        return (tags, template.description ?? "")
    }

    /// Reads a kind 33402 event; `exercises` names the exercise templates the caller knows, as for records.
    public static func workoutTemplate(
        from event: NostrEvent, exercises known: (Reference) -> KnownExercise? = { _ in nil }
    ) throws -> WorkoutTemplateEvent {
        guard event.kind == .workoutTemplate else {
            throw NIP101eError.wrongKind(expected: .workoutTemplate, found: event.kind)
        }
        guard let title = value("title", in: event) else { throw NIP101eError.missingTag("title") }
        var exercises: [TemplateExercise] = []
        var positions: [String: Int] = [:]
        for values in tags("exercise", in: event) {
            guard let first = values.first?.trimmingCharacters(in: .whitespaces), !first.isEmpty else { continue }
            let reference = Reference(first).flatMap { $0.kind == .exerciseTemplate ? $0 : nil }
            let exercise = reference.flatMap(known)
            let index: Int
            if let existing = positions[first] {
                index = existing
            } else {
                index = exercises.count
                positions[first] = index
                let name = exercise?.name ?? reference?.identifier ?? capitalizedName(first)
                exercises.append(
                    TemplateExercise(name: name.isEmpty ? "Exercise" : name, exerciseID: exercise?.id, targetSets: []))
            }
            let format = exercise?.format ?? setFormat
            let named = Dictionary(
                zip(format, values.dropFirst(2)).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
            let weight = try named["weight"].flatMap { try number($0, tag: "exercise") }
            let reps = try named["reps"].flatMap { try number($0, tag: "exercise") }
            if let reps, reps < 0 || reps != reps.rounded() || reps > Double(Int32.max) {
                throw NIP101eError.invalidTag("exercise", value: named["reps"] ?? "")
            }
            // Other clients write "0" where they set no target; Spotter's templates leave a target of no reps
            // out (a set has at least one rep), so 0 reads as none.
            let targetReps = reps.flatMap { $0 == 0 ? nil : Int($0) }
            guard weight != nil || targetReps != nil else { continue }
            exercises[index].targetSets.append(TargetSet(weightKg: weight.map { max($0, 0) }, reps: targetReps))
        }
        guard !exercises.isEmpty else { throw NIP101eError.noExercises }
        let template = CreateWorkoutTemplateRequest(
            name: title, type: workoutType(value("type", in: event)) ?? .strength,
            description: event.content, exercises: exercises, visibility: .public)
        return WorkoutTemplateEvent(identifier: event.dTag, template: template, hashtags: hashtags(in: event))
    }

    private static func capitalizedName(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
