import Foundation
import SpotterCore
import SpotterModels

/// Reads the compose form (`WorkoutDraft`) into a `CreatePostRequest`, and names what is wrong by the builder's
/// input ids so the page can mark each field.
///
/// Only the form's shape is checked here (numbers that are numbers, a date that is a date); what makes a valid
/// post is `PostRules`' business, whose JSON paths `explain(_:)` turns back into the inputs they came from.
struct WorkoutForm {
    /// One thing wrong: the input it is about (its HTML id) and what to say.
    struct Problem {
        let input: String
        let label: String
        let detail: String
    }

    let draft: WorkoutDraft
    private(set) var problems: [Problem] = []
    private(set) var request: CreatePostRequest?
    /// For each exercise of the request, the builder's exercise index; per set, the builder's set index.
    private var exerciseRows: [Int] = []
    private var setRows: [[Int]] = []

    init(_ draft: WorkoutDraft, units: Units, timeZone: TimeZone, now: Date) {
        self.draft = draft
        let group = draft.groupID.flatMap(GroupID.init)
        if draft.groupID != nil, group == nil {
            add("\(draft.kind)-visibility", "Who can see it", "Pick one of your groups.")
        }
        let children = draft.childIDs.compactMap(ChildProfileID.init)
        if children.count != draft.childIDs.count {
            add("\(draft.kind)-children", "For a child", "Pick children from your list.")
        }
        let childIDs = children.isEmpty ? nil : children
        guard draft.kind == "workout" else {
            request = CreatePostRequest(
                kind: .note, text: draft.text, visibility: draft.visibility, groupID: group, childIDs: childIDs)
            return
        }
        var exercises: [ExerciseEntry] = []
        for (e, exercise) in draft.exercises.enumerated() {
            var sets: [WorkoutSet] = []
            var rows: [Int] = []
            for (s, set) in exercise.sets.enumerated() where !set.isBlank {
                let weight = Double(set.weight.replacingOccurrences(of: ",", with: ".")).filter {
                    $0 >= 0 && $0.isFinite
                }
                // A whole number is the form's business; how many reps a set may have is `PostRules`'.
                let reps = Int(set.reps)
                if weight == nil {
                    add("set-\(e)-\(s)-weight", Self.setLabel(e, s, "weight"), "Enter a weight (0 for bodyweight).")
                }
                if reps == nil {
                    add("set-\(e)-\(s)-reps", Self.setLabel(e, s, "reps"), "Enter the reps, a whole number.")
                }
                if let weight, let reps {
                    let rpe = Double(set.rpe.replacingOccurrences(of: ",", with: "."))
                    sets.append(WorkoutSet(weightKg: units.kilograms(weight), reps: reps, rpe: rpe, setType: set.type))
                    rows.append(s)
                }
            }
            let cardio = readCardio(exercise, index: e)
            guard !exercise.name.isEmpty || !rows.isEmpty || cardio != nil else { continue }
            exercises.append(ExerciseEntry(name: exercise.name, sets: sets.isEmpty ? nil : sets, cardio: cardio))
            exerciseRows.append(e)
            setRows.append(rows)
        }
        // Left out (an older form, a script), the workout was done now.
        let doneAt = draft.doneAt.isEmpty ? now : WorkoutDraft.date(fromLocal: draft.doneAt, in: timeZone)
        if doneAt == nil {
            add("done-at", "Done at", "Pick the date and time you finished.")
        } else if let doneAt, doneAt > PostRules.latestDoneAt(now: now) {
            add("done-at", "Done at", "That is in the future; pick a time up to now.")
        }
        // How long it took, when someone said: the minutes typed, or a run's time. Else none: a workout without
        // an end time shows no duration, rather than one nobody typed.
        let cardioSeconds = exercises.compactMap(\.cardio?.durationS).reduce(0, +)
        var minutes = draft.type == .cardio && cardioSeconds > 0 ? max(1, (cardioSeconds + 59) / 60) : nil
        if !draft.minutes.isEmpty {
            if let typed = Int(draft.minutes), (1...1440).contains(typed) {
                minutes = typed
            } else {
                add("duration", "Minutes", "Enter the minutes it took, a whole number from 1 to 1440.")
            }
        }
        guard problems.isEmpty, let doneAt else { return }
        let workout = WorkoutRecord(
            title: draft.title, type: draft.type, startTime: doneAt - TimeInterval((minutes ?? 0) * 60),
            endTime: minutes == nil ? nil : doneAt, exercises: exercises,
            templateID: draft.templateID.flatMap(WorkoutTemplateID.init))
        request = CreatePostRequest(
            kind: .workout, text: draft.text, visibility: draft.visibility, workout: workout, groupID: group,
            childIDs: childIDs)
    }

    /// Adds what `PostRules` refused: each field error lands on the input its JSON path names.
    mutating func explain(_ fields: [FieldError]) {
        for field in fields {
            let (input, label) = place(field.field)
            add(input, label, Self.sentence(field.detail))
        }
    }

    /// Adds a refusal about the form as a whole (a rate limit, say).
    mutating func explain(_ message: String) {
        add("", "", message)
    }

    /// Adds problems found outside the form's own fields (its photos).
    mutating func mark(_ problems: [Problem]) {
        self.problems += problems
    }

    /// The request with its photos, unless something is wrong.
    func request(with media: [MediaID]) -> CreatePostRequest? {
        guard problems.isEmpty, var request else { return nil }
        if !media.isEmpty { request.mediaIDs = media }
        return request
    }

    private mutating func readCardio(_ exercise: WorkoutDraft.Exercise, index e: Int) -> CardioMetrics? {
        guard !exercise.distance.isEmpty || !exercise.time.isEmpty else { return nil }
        let metres = exercise.distance.isEmpty ? nil : CardioText.metres(exercise.distance, unit: exercise.distanceUnit)
        let seconds = exercise.time.isEmpty ? 0 : CardioText.seconds(exercise.time)
        if !exercise.distance.isEmpty && metres == nil {
            add("exercise-\(e)-distance", "Exercise \(e + 1) distance", "Enter a distance, like 5.2.")
        }
        if seconds == nil {
            add("exercise-\(e)-time", "Exercise \(e + 1) time", "Enter the time as h:mm:ss, mm:ss or minutes.")
        }
        guard let seconds, metres != nil || exercise.distance.isEmpty else { return nil }
        return CardioMetrics(distanceM: metres, durationS: seconds)
    }

    /// The builder input and its label for a `PostRules` JSON path like `workout.exercises[1].sets[0].reps`.
    private func place(_ path: String) -> (String, String) {
        let workoutText = draft.kind == "workout"
        switch path {
        case "text": return (workoutText ? "workout-text" : "note-text", workoutText ? "How did it go?" : "Note")
        case "visibility", "group_id": return ("\(draft.kind)-visibility", "Who can see it")
        case let field where field.hasPrefix("child_ids"): return ("\(draft.kind)-children", "For a child")
        case "workout.title": return ("title", "Title")
        case "workout.start_time", "workout.end_time": return ("duration", "Minutes")
        case "workout.exercises": return ("exercise-0", "Exercises")
        case "workout.template_id": return ("", "Template")
        default: break
        }
        if path.hasPrefix("media_ids") { return ("\(draft.kind)-photo", "Photos") }
        let numbers = path.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard path.hasPrefix("workout.exercises["), let first = numbers.first, exerciseRows.indices.contains(first)
        else { return ("", "Workout") }
        let e = exerciseRows[first]
        if path.contains(".cardio.distance") { return ("exercise-\(e)-distance", "Exercise \(e + 1) distance") }
        if path.contains(".cardio.") { return ("exercise-\(e)-time", "Exercise \(e + 1) time") }
        if path.contains(".sets["), numbers.count > 1, setRows[first].indices.contains(numbers[1]) {
            let s = setRows[first][numbers[1]]
            let part = path.hasSuffix("reps") ? "reps" : "weight"
            return ("set-\(e)-\(s)-\(part)", Self.setLabel(e, s, part))
        }
        return ("exercise-\(e)", "Exercise \(e + 1)")
    }

    private mutating func add(_ input: String, _ label: String, _ detail: String) {
        problems.append(Problem(input: input, label: label, detail: detail))
    }

    private static func setLabel(_ exercise: Int, _ set: Int, _ part: String) -> String {
        "Exercise \(exercise + 1), set \(set + 1) \(part)"
    }

    /// "needs sets or cardio metrics" → "Needs sets or cardio metrics."
    private static func sentence(_ detail: String) -> String {
        let text = detail.prefix(1).uppercased() + detail.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}

extension Optional {
    /// The value when it passes `isIncluded`, else `nil`.
    fileprivate func filter(_ isIncluded: (Wrapped) -> Bool) -> Wrapped? {
        flatMap { isIncluded($0) ? $0 : nil }
    }
}
