import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

/// Per-exercise progress (estimated one-rep max over time) in the API, and the profile's progress section.
@Suite("Exercise progress over HTTP and on the profile")
struct ExerciseProgressTests {
    @Test(
        "a profile without workouts has no lifts, and its page says 'No workouts yet'",
        arguments: StorageBackend.available)
    func empty(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, who has logged nothing
            _ = try await api.user("ana")

            // When anyone reads her progress and opens her profile
            let report = try await api.call(.get, "/api/v1/users/ana/progress").decode(ProgressReport.self)
            var browser = WebBrowser(api)
            let page = try await browser.get("/u/ana")

            // Then there are no lifts, and the page says so instead of drawing an empty plot
            #expect(report.exercises.isEmpty)
            #expect(page.text.contains("No workouts yet"))
            #expect(!page.text.contains("week-bars"))
            #expect(page.text.contains("0 workouts in the last 12 weeks"))
        }
    }

    @Test(
        "the main lifts' estimated 1RM per workout, oldest first, most-done lifts first; cardio and warm-ups left out",
        arguments: StorageBackend.available)
    func series(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountPostsPerHour = 100 }) { api in
            // Given Ana's squats on three days (a warm-up set each time) and one bench session, and a run
            let ana = try await api.user("ana")
            let now = api.clock.now
            for (day, weight) in [(3.0, 100.0), (2, 105), (1, 110)] {
                _ = try await api.workout(
                    ana, "Squats",
                    sets: [
                        WorkoutSet(weightKg: 140, reps: 1, setType: .warmup), WorkoutSet(weightKg: weight, reps: 5),
                    ],
                    at: now - day * 86_400)
            }
            _ = try await api.workout(
                ana, "Bench", sets: [WorkoutSet(weightKg: 80, reps: 1)], exercise: "Bench Press", at: now - 86_400)
            let run = WorkoutRecord(
                title: "Run", type: .cardio, startTime: now - 3600, endTime: now,
                exercises: [ExerciseEntry(name: "Run", cardio: CardioMetrics(distanceM: 10_000, durationS: 3000))])
            _ = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .workout, workout: run))

            // When a visitor reads her progress
            let report = try await api.call(.get, "/api/v1/users/ana/progress").decode(ProgressReport.self)

            // Then the squat leads with its Epley estimate per workout, oldest first, then the bench's single
            #expect(report.exercises.map(\.exercise) == ["Back Squat", "Bench Press"])
            let squat = try #require(report.exercises.first)
            let epley: [Double] = [100.0, 105, 110].map { $0 * (1 + 5.0 / 30) }
            #expect(squat.points.map(\.estimatedOneRepMaxKg) == epley)
            #expect(squat.points.map(\.performedAt) == squat.points.map(\.performedAt).sorted())
            #expect(report.exercises.last?.points.map(\.estimatedOneRepMaxKg) == [80])

            // And the profile shows workouts per week as the bars' quantity, and the lifts in the viewer's units
            var bo = WebBrowser(api)
            try await bo.signUp("bob")
            _ = try await api.call(
                .patch, "/api/v1/me", token: try await api.signin("bob").decode(TokenResponse.self).accessToken,
                body: UpdateAccountRequest(units: .lb))
            let page = try await bo.get("/u/ana").text
            #expect(page.contains("Workouts per week"))
            #expect(page.contains("5 workouts in the last 12 weeks"))
            #expect(!page.contains("1 workouts"))
            #expect(page.contains("Main lifts: estimated one-rep max"))
            #expect(page.contains("Back Squat"))
            #expect(page.contains("Best 283 lb"))  // 128.33 kg
            var visitor = WebBrowser(api)
            let kilos = try await visitor.get("/u/ana").text
            #expect(kilos.contains("Best 128.5 kg"))
        }
    }
}
