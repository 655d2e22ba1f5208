import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// `spotter log-workout`: a workout from flags, or asked for line by line when none are given; posted through
/// the outbox, so it is kept and sent later when offline. A public workout, when `spotter nostr link` linked
/// the key on this computer, is signed here and published to Spotter's relay and yours instead (`spotter
/// nostr publish-status` shows how far it got).
///
///     spotter log-workout --title "Leg day" --exercise "Back Squat: 100x5, 100x5, 105x3" --exercise "Lunge: 20x10"
///     spotter log-workout --title "Morning run" --exercise Run --distance 5.2km --duration 30:45
struct LogWorkout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-workout", abstract: "Log a workout (asks for it when no --exercise is given).")

    @OptionGroup var options: ClientOptions
    @Option(help: "The workout's title.") var title: String?
    @Option(help: "strength, circuit, emom, amrap or cardio (cardio when --distance or --duration is given).")
    var type: WorkoutType?
    @Option(help: "\"Name: 100x5, 100x5\" (kg × reps); repeat for each exercise. For cardio, just the name (\"Run\").")
    var exercise: [String] = []
    @Option(help: "Cardio distance: 5.2km, 3.1mi or 5000m (a bare number is km).") var distance: String?
    @Option(help: "Cardio time: h:mm:ss, mm:ss or minutes.") var duration: String?
    @Option(help: "Minutes it took (for cardio, the --duration by default).") var minutes: Int?
    @Option(help: "A note with the workout; #tags are linked.") var text = ""
    @Option(help: "public, followers or private.") var visibility: Visibility = .public
    @Option(help: "Start from a workout template (its id).") var template: String?

    func run() async throws {
        let cardio = try Self.cardio(distance: distance, duration: duration)
        var exercises: [ExerciseEntry]
        if let cardio {
            let names = exercise.isEmpty ? [title ?? "Run"] : exercise
            exercises = names.map { ExerciseEntry(name: $0, cardio: cardio) }
        } else {
            exercises = try exercise.map(Self.parse)
        }
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
        let minutes = minutes ?? cardio.map { max(1, ($0.durationS + 59) / 60) } ?? 60
        let workout = WorkoutRecord(
            title: title ?? "Workout", type: type ?? (cardio == nil ? .strength : .cardio),
            startTime: end - Double(minutes) * 60, endTime: end,
            exercises: exercises, templateID: templateID)
        let request = CreatePostRequest(kind: .workout, text: text, visibility: visibility, workout: workout)
        // A public workout, with the key here linked to the account: signed here and sent to the relays.
        let nostr = try options.nostrPublishing()
        if await nostr.takes(request) {
            let event = try await nostr.publish(request)
            return try await NostrPublishReport.drainAndReport(nostr.publisher, event: event)
        }
        let outbox = try options.outbox()
        let queued = try await outbox.enqueue(.createPost(request))
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

    /// `--distance` and `--duration` as cardio metrics; `nil` when neither is given.
    static func cardio(distance: String?, duration: String?) throws -> CardioMetrics? {
        guard distance != nil || duration != nil else { return nil }
        var metres: Double?
        if let distance {
            guard let parsed = CardioText.metres(distance, unit: .km) else {
                throw ValidationError("\"\(distance)\": write the distance like 5.2km, 3.1mi or 5000m.")
            }
            metres = parsed
        }
        var seconds = 0
        if let duration {
            guard let parsed = CardioText.seconds(duration) else {
                throw ValidationError("\"\(duration)\": write the time as h:mm:ss, mm:ss or minutes, like 30:45.")
            }
            seconds = parsed
        }
        return CardioMetrics(distanceM: metres, durationS: seconds)
    }

    static func ask(_ prompt: String) -> String? {
        print("\(prompt): ", terminator: "")
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }
}

extension WorkoutType: ExpressibleByArgument {}
extension Visibility: ExpressibleByArgument {}
