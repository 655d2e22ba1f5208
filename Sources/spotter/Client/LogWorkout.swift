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
///     spotter log-workout --title "Pulls" --exercise "Deadlift: 140x3" --start 2026-03-02T18:00 --minutes 50
///
/// How long it took is only what was said (`--minutes`, `--start`/`--end`, a run's `--duration`): a workout
/// without any has no duration.
struct LogWorkout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-workout", abstract: "Log a workout (asks for it when no --exercise is given).")

    @OptionGroup var options: ClientOptions
    @OptionGroup var workout: WorkoutFlags
    @Option(help: "A note with the workout; #tags are linked.") var text = ""
    @Option(help: "public, followers or private.") var visibility: Visibility = .public
    @Option(help: "Start from a workout template (its id).") var template: String?

    func validate() throws { try workout.check() }

    func run() async throws {
        var exercises = try workout.exercises(orNames: [workout.title ?? "Run"])
        var title = workout.title
        if exercises.isEmpty && template == nil {
            title = title ?? Self.ask("Title")
            print("Exercises, one per line as \"Name: 100x5, 100x5\"; an empty line ends.")
            while let line = Self.ask("Exercise"), !line.isEmpty {
                do {
                    exercises.append(try WorkoutFlags.parse(line))
                } catch let error as ValidationError {
                    print(error.message)
                }
            }
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
        // Done now, unless the flags say when; how long only when they say.
        let times = try workout.times(from: nil, now: Date())
        let isCardio = try workout.cardio() != nil
        let record = WorkoutRecord(
            title: title ?? "Workout", type: workout.type ?? (isCardio ? .cardio : .strength),
            startTime: times.start, endTime: times.end, exercises: exercises, templateID: templateID)
        let request = CreatePostRequest(kind: .workout, text: text, visibility: visibility, workout: record)
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

    static func ask(_ prompt: String) -> String? {
        print("\(prompt): ", terminator: "")
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }
}

extension WorkoutType: ExpressibleByArgument {}
extension Visibility: ExpressibleByArgument {}
