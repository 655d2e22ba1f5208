import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Progress on the profile over HTTP")
struct ProgressAPITests {
    @Test(
        "weekly totals, streaks and standing records, from what the viewer may see",
        arguments: StorageBackend.available)
    func progress(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountPostsPerHour = 100 }) { api in
            // Given Ana, in Berlin, with workouts on three days running, the last one today and followers-only
            let ana = try await api.user("ana")
            _ = try await api.call(
                .patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(timeZone: "Europe/Berlin"))
            let now = api.clock.now
            try await api.workout(ana, "Day 1", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: now - 2 * 86_400)
            try await api.workout(ana, "Day 2", sets: [WorkoutSet(weightKg: 105, reps: 5)], at: now - 86_400)
            let today = WorkoutRecord(
                title: "Day 3", type: .strength, startTime: now - 60, endTime: now,
                exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 110, reps: 3)])])
            _ = try await api.call(
                .post, "/api/v1/posts", token: ana,
                body: CreatePostRequest(kind: .workout, visibility: .followers, workout: today))
            // When Ana looks at her own progress
            let mine = try await api.call(.get, "/api/v1/users/ana/progress?weeks=4", token: ana).decode(
                ProgressReport.self)
            // Then
            #expect(mine.timeZone == "Europe/Berlin")
            #expect(mine.weeks.count == 4)
            #expect(mine.weeks.map(\.workouts).reduce(0, +) == 3)
            let volume: Double = mine.weeks.map(\.volumeKg).reduce(0, +)
            #expect(volume == 1355)  // 100×5 + 105×5 + 110×3
            #expect(mine.currentStreak == 3)
            #expect(mine.longestStreak == 3)
            let heaviest = mine.personalRecords.filter { $0.kind == .heaviestWeight }
            #expect(heaviest.map(\.value) == [110])
            // A stranger sees only the public workouts.
            let seen = try await api.call(.get, "/api/v1/users/ana/progress").decode(ProgressReport.self)
            #expect(seen.weeks.count == 12)
            #expect(seen.weeks.map(\.workouts).reduce(0, +) == 2)
            #expect(seen.personalRecords.filter { $0.kind == .heaviestWeight }.map(\.value) == [105])
            #expect(try await api.call(.get, "/api/v1/users/ana/progress?weeks=0").status == .badRequest)
            #expect(try await api.call(.get, "/api/v1/users/nobody/progress").status == .notFound)
        }
    }
}
