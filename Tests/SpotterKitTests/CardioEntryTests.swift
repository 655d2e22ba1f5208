import Foundation
import SpotterKit
import SpotterModels
import Testing

@Suite("Cardio entry")
struct CardioEntryTests {
    @Test("times and distances read as people type them")
    func parsing() {
        #expect(CardioText.seconds("30:45") == 1845)
        #expect(CardioText.seconds("1:02:03") == 3723)
        #expect(CardioText.seconds("45") == 2700)
        #expect(CardioText.seconds("5:75") == nil)
        #expect(CardioText.seconds("fast") == nil)
        #expect(CardioText.metres("5.2km", unit: .mi) == 5200)
        #expect(CardioText.metres("5000m", unit: .km) == 5000)
        #expect(abs((CardioText.metres("3.1 mi", unit: .km) ?? 0) - 4988.97) < 0.01)
        #expect(CardioText.metres("5,2", unit: .km) == 5200)
        #expect(CardioText.metres("-1", unit: .km) == nil)
        #expect(CardioText.pace(CardioMetrics(distanceM: 5200, durationS: 1845), unit: .km) == "5:55 /km")
        #expect(WorkoutType.emom.label == "EMOM")
        #expect(WorkoutType.amrap.label == "AMRAP")
    }

    @Test("the compose model logs a run with its distance, time and pace")
    func composeModel() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana with the compose model
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let model = await ComposeWorkoutViewModel(client: ana)

            // When she enters a 3.1 mile run in 30:45
            let pace = await MainActor.run {
                model.title = "Morning run"
                model.type = .cardio
                model.addExercise("Run")
                model.setCardio(for: 0, distance: 3.1, unit: .mi, durationS: 30 * 60 + 45)
                return model.pace(for: 0, unit: .mi)
            }

            // Then the pace shows per mile, and the run is posted in metres and seconds
            #expect(pace == "9:55 /mi")
            #expect(await model.publish())
            let posted = try #require(try await ana.feed(.user("ana")).items.first?.workout)
            #expect(posted.type == .cardio)
            #expect(posted.exercises.first?.sets == nil)
            #expect(abs((posted.exercises.first?.cardio?.distanceM ?? 0) - 4988.97) < 0.01)
            #expect(posted.exercises.first?.cardio?.durationS == 1845)
        }
    }

    @Test("spotter log-workout takes a run's distance and time")
    func terminal() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana, signed in with the terminal client
            let ana = try await TerminalClientTests.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }

            // When she logs a run with --distance and --duration
            let sent = try await ana.run(
                "log-workout", "--title", "Morning run", "--exercise", "Run", "--distance", "3.1mi", "--duration",
                "30:45")
            #expect(sent.contains("sent:"))

            // Then it is a cardio workout of 30:45 over 3.1 miles, and the feed says so in one line
            let client = SpotterClient(baseURL: url)
            let posted = try #require(try await client.feed(.user("ana")).items.first?.workout)
            #expect(posted.type == .cardio)
            #expect(posted.exercises.first?.cardio?.durationS == 1845)
            #expect(abs((posted.exercises.first?.cardio?.distanceM ?? 0) - 4988.97) < 0.01)
            #expect(posted.duration == TimeInterval(31 * 60))
            let feed = try await ana.run("feed", "global")
            #expect(feed.contains("Cardio · Morning run: Run 4.99 km · 30:45 · 6:10 /km"))
            #expect(feed.contains("0 comments"))

            // When the distance is not one, she is told how to write it
            do {
                _ = try await ana.run("log-workout", "--distance", "far", "--duration", "30:45")
                Issue.record("a distance that isn't one was taken")
            } catch let failed as TerminalClientTests.Spotter.Failed {
                #expect(failed.description.contains("write the distance like 5.2km, 3.1mi or 5000m"))
            }
        }
    }
}
