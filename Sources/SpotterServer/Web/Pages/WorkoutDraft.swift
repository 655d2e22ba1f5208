import Foundation
import SpotterModels

/// The compose form as the person typed it: every field a string, kept so that a refused form is drawn again
/// with nothing lost.
///
/// The builder sends, per exercise, `exercise_name`, `exercise_distance`, `exercise_distance_unit` and
/// `exercise_time`; per set, `set_exercise` (the exercise's index), `set_weight`, `set_reps`, and the hidden
/// `set_type` and `set_rpe` it keeps for a logged set (the builder has no inputs for them), in order.
struct WorkoutDraft: Equatable {
    struct Exercise: Equatable {
        var name = ""
        var distance = ""
        var distanceUnit: DistanceUnit = .km
        var time = ""
        var sets: [SetRow] = [SetRow()]
    }

    struct SetRow: Equatable {
        var weight = ""
        var reps = ""
        /// A logged set's type and effort, kept as they were: `normal` and none for a new row.
        var type: SetType = .normal
        var rpe = ""

        var isBlank: Bool { weight.isEmpty && reps.isEmpty }
    }

    var kind = "workout"
    var title = ""
    var type: WorkoutType = .strength
    /// Empty unless someone said how long it took: a workout without minutes has no duration.
    var minutes = ""
    /// `datetime-local` text ("2026-11-25T18:30") in the person's time zone.
    var doneAt = ""
    var text = ""
    var visibility: Visibility?
    /// The group it goes to, when the audience chosen is one of the person's groups (`group:<id>`).
    var groupID: String?
    /// The children the post is for (`child` checkboxes), which only a private group may take.
    var childIDs: [String] = []
    var templateID: String?
    var exercises: [Exercise] = [Exercise()]

    /// An empty workout (or one from a template) done now, in `units`.
    init(template: WorkoutTemplate? = nil, units: Units, timeZone: TimeZone, now: Date) {
        doneAt = Self.localText(now, in: timeZone)
        guard let template else {
            exercises = [Exercise(distanceUnit: units.distance)]
            return
        }
        title = template.name
        type = template.type
        templateID = template.id.description
        exercises = template.exercises.map { exercise in
            let sets = exercise.targetSets.map { target in
                SetRow(
                    weight: target.weightKg.map { CardioText.number(units.value(ofKilograms: $0)) } ?? "",
                    reps: target.reps.map(String.init) ?? "")
            }
            return Exercise(name: exercise.name, distanceUnit: units.distance, sets: sets.isEmpty ? [SetRow()] : sets)
        }
        if exercises.isEmpty { exercises = [Exercise(distanceUnit: units.distance)] }
    }

    /// A logged workout as its edit page draws it, in `units` and `timeZone`: done when it ended (when it
    /// started, if nobody said how long it took), its minutes only when known.
    init(workout: WorkoutRecord, text: String, units: Units, timeZone: TimeZone) {
        title = workout.title
        type = workout.type
        minutes = workout.duration.map { String(max(1, Int(($0 / 60).rounded()))) } ?? ""
        let done = workout.duration == nil ? workout.startTime : workout.endTime ?? workout.startTime
        doneAt = Self.localText(done, in: timeZone)
        self.text = text
        templateID = workout.templateID?.description
        exercises = workout.exercises.map { entry in
            Exercise(
                name: entry.name,
                distance: entry.cardio?.distanceM.map { CardioText.number($0 / units.distance.metres) } ?? "",
                distanceUnit: units.distance,
                time: entry.cardio.map { CardioText.clock($0.durationS) } ?? "",
                sets: (entry.sets ?? []).map { set in
                    SetRow(
                        weight: CardioText.number(units.value(ofKilograms: set.weightKg)), reps: String(set.reps),
                        type: set.setType, rpe: set.rpe.map(CardioText.number) ?? "")
                })
        }
        for index in exercises.indices where exercises[index].sets.isEmpty { exercises[index].sets = [SetRow()] }
        if exercises.isEmpty { exercises = [Exercise(distanceUnit: units.distance)] }
    }

    /// The form as posted; rows beyond the exercises it names are dropped.
    init(form: WebForm, units: Units) {
        kind = form["kind"] == "note" ? "note" : "workout"
        title = form["title"] ?? ""
        type = form["type"].flatMap(WorkoutType.init(rawValue:)) ?? .strength
        minutes = form["duration_min"] ?? ""
        doneAt = form["done_at"] ?? ""
        text = form.all("text").first ?? ""
        (visibility, groupID) = Self.audience(form["visibility"])
        childIDs = form.all("child").filter { !$0.isEmpty }
        templateID = form["template_id"]
        let names = form.all("exercise_name")
        let distances = form.all("exercise_distance")
        let distanceUnits = form.all("exercise_distance_unit")
        let times = form.all("exercise_time")
        exercises = names.enumerated().map { index, name in
            Exercise(
                name: name, distance: distances[safe: index] ?? "",
                distanceUnit: distanceUnits[safe: index].flatMap(DistanceUnit.init(rawValue:)) ?? units.distance,
                time: times[safe: index] ?? "", sets: [])
        }
        let indexes = form.all("set_exercise")
        let weights = form.all("set_weight")
        let reps = form.all("set_reps")
        let types = form.all("set_type")
        let efforts = form.all("set_rpe")
        for (row, index) in indexes.enumerated() {
            guard let exercise = Int(index), exercises.indices.contains(exercise) else { continue }
            exercises[exercise].sets.append(
                SetRow(
                    weight: weights[safe: row] ?? "", reps: reps[safe: row] ?? "",
                    type: types[safe: row].flatMap(SetType.init(rawValue:)) ?? .normal, rpe: efforts[safe: row] ?? ""))
        }
        for index in exercises.indices where exercises[index].sets.isEmpty { exercises[index].sets = [SetRow()] }
        if exercises.isEmpty { exercises = [Exercise(distanceUnit: units.distance)] }
    }

    /// The audience select's value: a personal visibility (`public`, `followers`, `private`) or one of the
    /// person's groups as `group:<id>`.
    static func audience(_ value: String?) -> (Visibility?, String?) {
        guard let value else { return (nil, nil) }
        if value.hasPrefix("group:") { return (.group, String(value.dropFirst("group:".count))) }
        return (Visibility(rawValue: value).flatMap { Visibility.personal.contains($0) ? $0 : nil }, nil)
    }

    /// `datetime-local`'s text for a moment in a time zone.
    static func localText(_ date: Date, in timeZone: TimeZone) -> String {
        localFormatter(timeZone).string(from: date)
    }

    /// The moment a `datetime-local` text names in a time zone (seconds optional).
    static func date(fromLocal text: String, in timeZone: TimeZone) -> Date? {
        let formatter = localFormatter(timeZone)
        if let date = formatter.date(from: text) { return date }
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.date(from: text)
    }

    private static func localFormatter(_ timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
