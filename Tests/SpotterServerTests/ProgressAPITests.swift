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

    @Test(
        "a workout logged to a club counts in its author's progress for the club's members only",
        arguments: StorageBackend.available)
    func groupWorkouts(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's public squat day, and a heavier one logged to her open running club
            let ana = try await api.user("ana")
            let mia = try await api.user("mia")
            let bea = try await api.user("bea")
            let club = try await api.createGroup(ana, "Harbour Runners", access: .open)
            _ = try await api.joinGroup(mia, club)
            try await api.follow(bea, "ana")
            let now = api.clock.now
            try await api.workout(ana, "Public", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: now - 86_400)
            let clubDay = WorkoutRecord(
                title: "Club", type: .strength, startTime: now - 3_600, endTime: now,
                exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 120, reps: 3)])])
            let posted = try await api.call(
                .post, "/api/v1/posts", token: ana,
                body: CreatePostRequest(kind: .workout, workout: clubDay, groupID: club.id))
            #expect(posted.status == .created)
            func seen(_ token: String?) async throws -> (workouts: Int, heaviest: [Double]) {
                let report = try await api.call(.get, "/api/v1/users/ana/progress", token: token)
                    .decode(ProgressReport.self)
                return (
                    report.weeks.map(\.workouts).reduce(0, +),
                    report.personalRecords.filter { $0.kind == .heaviestWeight }.map(\.value)
                )
            }
            // Then Ana and the club's member see both, and the club day's record; a follower outside the club and a
            // visitor see the public day only, which set a baseline and no record (a first lift sets none)
            for member in [ana, mia] {
                let seenByMember = try await seen(member)
                #expect(seenByMember.workouts == 2 && seenByMember.heaviest == [120])
            }
            for outsider in [bea, nil] {
                let seenOutside = try await seen(outsider)
                #expect(seenOutside.workouts == 1 && seenOutside.heaviest.isEmpty)
            }
        }
    }
}
