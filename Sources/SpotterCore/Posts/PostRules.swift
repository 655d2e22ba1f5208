import Foundation
import SpotterModels

/// What a post must be to be stored. Pure: returns every problem it finds, naming the field by its JSON path.
public enum PostRules {
    public static let textMaxLength = 5000
    public static let commentMaxLength = 2000
    /// A set's reps, logged or a template's target: a set of 0 reps says nothing was lifted.
    public static let setReps = 1...10_000
    /// `setReps` in words, for the problems that name it.
    static let setRepsText = "\(setReps.lowerBound) to \(setReps.upperBound)"
    /// How far past the server's clock a workout form may say it was done (a phone's clock runs a little ahead).
    public static let futureSlack: TimeInterval = 15 * 60

    /// The latest moment a person may say a workout was done, for the forms that ask (the web builder).
    ///
    /// Not enforced on the API: an offline client replays workouts stamped by its own clock.
    public static func latestDoneAt(now: Date) -> Date { now.addingTimeInterval(futureSlack) }

    /// Who may edit a post: its author only. An admin removes someone's words, never rewrites them.
    public static func mayEditPost(by viewer: UserID, author: UserID) -> Bool { viewer == author }

    /// Who may delete a post: its author or a site admin. The API refuses everyone else, and the web app offers
    /// Delete to exactly these people.
    public static func mayDeletePost(by viewer: UserID, role: Role, author: UserID) -> Bool {
        viewer == author || role == .admin
    }

    /// Who may delete a comment: its author, the post's author (it is their thread), or an admin. The API
    /// refuses everyone else, and the web app offers the button to exactly these people.
    public static func mayDeleteComment(
        by viewer: UserID, role: Role, commentAuthor: UserID, postAuthor: UserID
    ) -> Bool {
        viewer == commentAuthor || viewer == postAuthor || role == .admin
    }

    /// A note needs text unless it carries photos (`hasMedia`): a photo may speak for itself.
    public static func problems(
        kind: PostKind, text: String, workout: WorkoutRecord?, hasMedia: Bool = false
    ) -> [FieldError] {
        var problems: [FieldError] = []
        func add(_ field: String, _ detail: String) { problems.append(FieldError(field: field, detail: detail)) }
        if let problem = TextInput.problem(in: text, as: .lines) { add("text", problem) }
        if text.textLength > textMaxLength { add("text", "must be at most \(textMaxLength) characters") }
        switch kind {
        case .note:
            if TextLength.isBlank(text), !hasMedia { add("text", "is required for a note without photos") }
            if workout != nil { add("workout", "belongs to workout posts, not notes") }
        case .workout:
            guard let workout else {
                add("workout", "is required for a workout post")
                return problems
            }
            problems += self.problems(in: workout)
        }
        return problems
    }

    /// The post's text and workout as they are kept: prose with its line breaks made LF (`TextInput`).
    public static func normalized(text: String, workout: WorkoutRecord?) -> (String, WorkoutRecord?) {
        var workout = workout
        if let notes = workout?.notes { workout?.notes = TextInput.normalized(notes, as: .lines) }
        return (TextInput.normalized(text, as: .lines), workout)
    }

    static func problems(in workout: WorkoutRecord) -> [FieldError] {
        var problems: [FieldError] = []
        func add(_ field: String, _ detail: String) {
            problems.append(FieldError(field: "workout.\(field)", detail: detail))
        }
        if let problem = TextInput.problem(in: workout.title, as: .line) { add("title", problem) }
        if !TextLength.isName(workout.title, maxLength: 200) { add("title", "must be 1 to 200 characters") }
        // No end time is no duration: nobody said how long it took.
        if let end = workout.endTime, end < workout.startTime { add("end_time", "must not be before start_time") }
        if let end = workout.endTime, end.timeIntervalSince(workout.startTime) > 24 * 3600 {
            add("end_time", "must be within 24 hours of start_time")
        }
        if let problem = workout.notes.flatMap({ TextInput.problem(in: $0, as: .lines) }) { add("notes", problem) }
        if (workout.notes?.textLength ?? 0) > textMaxLength {
            add("notes", "must be at most \(textMaxLength) characters")
        }
        if !(1...100).contains(workout.exercises.count) { add("exercises", "must list 1 to 100 exercises") }
        for (index, exercise) in workout.exercises.enumerated() {
            let path = "exercises[\(index)]"
            if let problem = TextInput.problem(in: exercise.name, as: .line) { add("\(path).name", problem) }
            if !TextLength.isName(exercise.name, maxLength: 100) { add("\(path).name", "must be 1 to 100 characters") }
            let sets = exercise.sets ?? []
            if sets.isEmpty && exercise.cardio == nil { add(path, "needs sets or cardio metrics") }
            if sets.count > 100 { add("\(path).sets", "must be at most 100 sets") }
            for (setIndex, set) in sets.enumerated() {
                let setPath = "\(path).sets[\(setIndex)]"
                if !(0...2000).contains(set.weightKg) || !set.weightKg.isFinite {
                    add("\(setPath).weight_kg", "must be 0 to 2000")
                }
                // Refused on every surface (API, web, relay, CLI).
                if !setReps.contains(set.reps) {
                    add("\(setPath).reps", "must be \(setRepsText) (a set has at least one rep)")
                }
                if let rpe = set.rpe, !(1...10).contains(rpe) { add("\(setPath).rpe", "must be 1 to 10") }
            }
            if let cardio = exercise.cardio {
                if let distance = cardio.distanceM, !(0...1_000_000).contains(distance) || !distance.isFinite {
                    add("\(path).cardio.distance_m", "must be 0 to 1000000")
                }
                if !(0...86_400).contains(cardio.durationS) { add("\(path).cardio.duration_s", "must be 0 to 86400") }
            }
        }
        return problems
    }
}
