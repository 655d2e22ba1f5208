import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// `spotter edit <post>`: corrects a post of one's own, with `log-workout`'s flags for a workout's exercises,
/// sets and times; what no flag names stays as it is. Sent through the outbox, like every change; the server
/// detects the personal records again.
///
///     spotter edit 0190f3a2-… --exercise "Back Squat: 100x5, 100x4" --minutes 40
///     spotter edit 0190f3a2-… --title "Heavy Monday" --text "Felt strong #legday"
struct EditPost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Correct a post of yours: a workout's exercises, sets and times, or its text.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The post's id.") var post: String
    @OptionGroup var workout: WorkoutFlags
    @Option(help: "The post's new text; #tags are linked.") var text: String?
    @Option(help: "public, followers or private.") var visibility: Visibility?

    func validate() throws {
        guard PostID(post) != nil else { throw ValidationError("\(post) is not a post id.") }
        try workout.check()
        guard workout.saysAnything || text != nil || visibility != nil else {
            throw ValidationError("Say what to change: --exercise, --title, --minutes, --start, --end, --text, ….")
        }
    }

    func run() async throws {
        let id = PostID(post)!
        let current = try await options.client().post(id)
        var request = UpdatePostRequest(text: text, visibility: visibility)
        if workout.saysAnything {
            guard var edited = current.workout else {
                throw ValidationError("\(id) is a note, not a workout: only --text and --visibility change it.")
            }
            edited.title = workout.title ?? edited.title
            edited.type = workout.type ?? edited.type
            let exercises = try workout.exercises(orNames: edited.exercises.map(\.name))
            if !exercises.isEmpty { edited.exercises = exercises }
            (edited.startTime, edited.endTime) = try workout.times(
                from: (edited.startTime, edited.endTime), now: Date())
            request.workout = edited
        }
        let outbox = try options.outbox()
        let queued = try await outbox.editPost(id, request)
        try await OutboxReport.drainAndReport(outbox, sending: queued)
    }
}
