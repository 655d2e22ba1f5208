import Foundation
import SpotterKit
import SpotterModels
import Testing

/// `spotter log-workout` and `spotter edit`: a workout's times as given (never invented), its numbers
/// corrected later, and a clear line for a value it cannot read.
@Suite("Terminal client: workouts")
struct TerminalWorkoutTests {
    typealias Spotter = TerminalClientTests.Spotter

    static func newest(_ url: URL, _ ana: Spotter) async throws -> Post {
        try #require(try await SpotterClient(baseURL: url, tokens: ana.tokens).feed(.user("ana"), limit: 1).items.first)
    }

    @Test("a workout gets the minutes or the start and end given, and no duration when none is")
    func times() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana, signed in
            let ana = try await TerminalClientTests.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }

            // When she logs squats without saying how long they took
            _ = try await ana.run("log-workout", "--title", "Squats", "--exercise", "Back Squat: 100x5")

            // Then the workout has no end time: no duration
            let untimed = try #require(try await Self.newest(url, ana).workout)
            #expect(untimed.endTime == nil)
            #expect(abs(untimed.startTime.timeIntervalSinceNow) < 120)

            // When she gives the minutes
            _ = try await ana.run(
                "log-workout", "--title", "Bench", "--exercise", "Bench Press: 80x5", "--minutes", "45")
            let minutes = try #require(try await Self.newest(url, ana).workout)
            #expect(minutes.duration == TimeInterval(45 * 60))

            // When she gives the start and the end
            _ = try await ana.run(
                "log-workout", "--title", "Pulls", "--exercise", "Deadlift: 140x3", "--start", "2026-03-02T18:00:00Z",
                "--end", "2026-03-02T18:50:00Z")
            let timed = try #require(try await Self.newest(url, ana).workout)
            #expect(timed.startTime == ISO8601DateFormatter().date(from: "2026-03-02T18:00:00Z"))
            #expect(timed.endTime == ISO8601DateFormatter().date(from: "2026-03-02T18:50:00Z"))

            // And a run takes its time as its duration, as typed
            _ = try await ana.run(
                "log-workout", "--title", "Run", "--exercise", "Run", "--distance", "5km", "--duration", "25:00")
            #expect(try await Self.newest(url, ana).workout?.duration == TimeInterval(25 * 60))
        }
    }

    @Test("a bad --exercise says what is wrong and how to write it on one line, not the whole tool's usage")
    func badExercise() async throws {
        // Given anyone at a terminal
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let someone = Spotter(home: home)

        // When they write an exercise without its colon, or a set without its x
        for (value, said) in [
            (
                "Back Squat 100x5",
                #"Error: "Back Squat 100x5": write the exercise as "Name: 100x5, 100x5" (kg x reps)."#
            ),
            ("Back Squat: 100-5", #"Error: "100-5": write each set as kg x reps, like 100x5."#),
        ] {
            let (status, text) = try await someone.execute(["log-workout", "--exercise", value])

            // Then it fails, and its first line says what is wrong and the form expected
            #expect(status != 0)
            #expect(text.split(separator: "\n").first.map(String.init) == said)
            #expect(!text.contains("<subcommand>"))
            #expect(!text.contains("SUBCOMMANDS"))
        }
    }

    @Test("spotter edit corrects a workout's sets and time; the records follow; someone else's is refused")
    func edit() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's squats, 100 kg then a record 110 kg
            let ana = try await TerminalClientTests.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            _ = try await ana.run("log-workout", "--title", "Monday", "--exercise", "Back Squat: 100x5")
            _ = try await ana.run("log-workout", "--title", "Wednesday", "--exercise", "Back Squat: 110x5")
            let record = try await Self.newest(url, ana)
            #expect(!record.personalRecords.isEmpty)

            // When she corrects it: it was 100x5, 100x4, and took 40 minutes
            let said = try await ana.run(
                "edit", record.id.description, "--exercise", "Back Squat: 100x5, 100x4", "--minutes", "40")

            // Then it is sent, and the server has the new sets, no record, the title kept, and the duration
            #expect(said.contains("sent: edit of \(record.id)"))
            let edited = try await SpotterClient(baseURL: url, tokens: ana.tokens).post(record.id)
            #expect(
                edited.workout?.exercises.first?.sets == [
                    WorkoutSet(weightKg: 100, reps: 5), WorkoutSet(weightKg: 100, reps: 4),
                ])
            #expect(edited.workout?.title == "Wednesday")
            #expect(edited.workout?.duration == TimeInterval(40 * 60))
            // ending when it was logged as done, not 40 minutes after
            #expect(edited.workout?.endTime == record.workout?.startTime)
            #expect(edited.personalRecords.isEmpty)

            // When Bea tries to edit it
            try await SpotterClient(baseURL: url)
                .signUp(email: "bea@example.com", username: "bea", password: TerminalClientTests.password)
            let bea = Spotter(home: ana.home.appendingPathComponent("bea"))
            _ = try await bea.run(
                "login", "bea", "--server", url.absoluteString, "--password", TerminalClientTests.password)
            let refused = try await bea.fail("edit", record.id.description, "--exercise", "Back Squat: 200x5")

            // Then she is told why, and nothing changed
            #expect(refused.contains("Only the author can edit this post."))
            #expect(
                try await SpotterClient(baseURL: url, tokens: ana.tokens).post(record.id).workout?.exercises.first?
                    .sets?.first?.weightKg == 100)
        }
    }
}
