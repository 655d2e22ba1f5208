import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// `spotter log-workout`: a workout from flags, or asked for line by line when none are given; posted through
/// the outbox, so it is kept and sent later when offline.
///
///     spotter log-workout --title "Leg day" --exercise "Back Squat: 100x5, 100x5, 105x3" --exercise "Lunge: 20x10"
struct LogWorkout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-workout", abstract: "Log a workout (asks for it when no --exercise is given).")

    @OptionGroup var options: ClientOptions
    @Option(help: "The workout's title.") var title: String?
    @Option(help: "strength, circuit, emom, amrap or cardio.") var type: WorkoutType = .strength
    @Option(help: "\"Name: 100x5, 100x5\" (kg × reps); repeat for each exercise.") var exercise: [String] = []
    @Option(help: "Minutes it took.") var minutes = 60
    @Option(help: "A note with the workout; #tags are linked.") var text = ""
    @Option(help: "public, followers or private.") var visibility: Visibility = .public
    @Option(help: "Start from a workout template (its id).") var template: String?

    func run() async throws {
        var exercises = try exercise.map(Self.parse)
        var title = self.title
        if exercises.isEmpty && template == nil {
            title = title ?? Self.ask("Title")
            print("Exercises, one per line as \"Name: 100x5, 100x5\"; an empty line ends.")
            while let line = Self.ask("Exercise"), !line.isEmpty { exercises.append(try Self.parse(line)) }
        }
        let client = try options.client()
        var templateID: WorkoutTemplateID?
        if let template {
            guard let id = WorkoutTemplateID(template) else {
                throw ValidationError("\(template) is not a template id.")
            }
            let found = try await client.workoutTemplate(id)
            templateID = id
            title = title ?? found.name
            if exercises.isEmpty {
                exercises = found.exercises.map { exercise in
                    ExerciseEntry(
                        name: exercise.name,
                        sets: exercise.targetSets.map { WorkoutSet(weightKg: $0.weightKg ?? 0, reps: $0.reps ?? 0) })
                }
            }
        }
        let end = Date()
        let workout = WorkoutRecord(
            title: title ?? "Workout", type: type, startTime: end - Double(minutes) * 60, endTime: end,
            exercises: exercises, templateID: templateID)
        let outbox = try options.outbox()
        let queued = try await outbox.enqueue(
            .createPost(CreatePostRequest(kind: .workout, text: text, visibility: visibility, workout: workout)))
        try await OutboxReport.drainAndReport(outbox, sending: queued)
    }

    /// "Back Squat: 100x5, 100x5, 105x3" → the exercise and its sets (kg × reps).
    static func parse(_ text: String) throws -> ExerciseEntry {
        let parts = text.split(separator: ":", maxSplits: 1)
        let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !name.isEmpty else { throw ValidationError("\"\(text)\": name the exercise before a colon.") }
        let sets = try (parts.count > 1 ? parts[1].split(separator: ",") : []).map { set -> WorkoutSet in
            let numbers = set.lowercased().split(separator: "x").map { $0.trimmingCharacters(in: .whitespaces) }
            guard numbers.count == 2, let weight = Double(numbers[0]), let reps = Int(numbers[1]) else {
                throw ValidationError(
                    "\"\(set.trimmingCharacters(in: .whitespaces))\": write sets as kg x reps, like 100x5.")
            }
            return WorkoutSet(weightKg: weight, reps: reps)
        }
        guard !sets.isEmpty else { throw ValidationError("\"\(text)\": give at least one set, like 100x5.") }
        return ExerciseEntry(name: name, sets: sets)
    }

    static func ask(_ prompt: String) -> String? {
        print("\(prompt): ", terminator: "")
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }
}

extension WorkoutType: ExpressibleByArgument {}
extension Visibility: ExpressibleByArgument {}
