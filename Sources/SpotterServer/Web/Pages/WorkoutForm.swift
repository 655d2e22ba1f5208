import Foundation
import SpotterCore
import SpotterModels

/// Reads the compose form into a `CreatePostRequest`: a note, or a workout from the builder.
///
/// The builder sends one `exercise_name` per exercise and, per set, `set_exercise` (the exercise's index),
/// `set_weight` and `set_reps`, in order. Only the form's shape is checked here; what makes a valid post is
/// `PostService`'s business.
enum WorkoutForm {
    static func request(from form: WebForm, now: Date) throws -> CreatePostRequest {
        let visibility = form["visibility"].flatMap(Visibility.init(rawValue:))
        let text = form["text"]
        guard form["kind"] == "workout" else {
            return CreatePostRequest(kind: .note, text: text, visibility: visibility)
        }
        let names = form.all("exercise_name")
        var sets = Array(repeating: [WorkoutSet](), count: names.count)
        let indexes = form.all("set_exercise")
        let weights = form.all("set_weight")
        let reps = form.all("set_reps")
        for (row, index) in indexes.enumerated() {
            guard let exercise = Int(index), sets.indices.contains(exercise), row < weights.count, row < reps.count
            else { continue }
            if weights[row].isEmpty && reps[row].isEmpty { continue }  // an untouched blank row
            guard let weight = Double(weights[row].replacingOccurrences(of: ",", with: ".")), weight >= 0,
                let count = Int(reps[row]), count > 0
            else {
                throw SpotterError.validation([
                    FieldError(
                        field: "sets", detail: "Set \(row + 1) needs a weight (0 or more) and a whole number of reps.")
                ])
            }
            sets[exercise].append(WorkoutSet(weightKg: weight, reps: count))
        }
        let exercises = zip(names, sets).compactMap { name, sets -> ExerciseEntry? in
            name.isEmpty && sets.isEmpty ? nil : ExerciseEntry(name: name, sets: sets)
        }
        let minutes = form["duration_min"].flatMap(Int.init).map { min(max($0, 1), 24 * 60) } ?? 60
        let workout = WorkoutRecord(
            title: form["title"] ?? "Workout", type: form["type"].flatMap(WorkoutType.init(rawValue:)) ?? .strength,
            startTime: now - TimeInterval(minutes * 60), endTime: now, exercises: exercises,
            templateID: form["template_id"].flatMap(WorkoutTemplateID.init))
        return CreatePostRequest(kind: .workout, text: text, visibility: visibility, workout: workout)
    }
}
