import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// A set of 0 reps says nothing was lifted: `PostRules` refuses it, and every surface gets that one answer.
@Suite("A set of 0 reps")
struct ZeroRepsTests {
    @Test(
        "is refused over the API, naming the set, when a workout is posted or edited",
        arguments: StorageBackend.available)
    func api(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, with a workout of two sets
            let ana = try await api.user("ana")
            let start = api.clock.now - 3600
            let sets = [WorkoutSet(weightKg: 100, reps: 5), WorkoutSet(weightKg: 100, reps: 0)]
            let workout = WorkoutRecord(
                title: "Monday", type: .strength, startTime: start, endTime: start + 1800,
                exercises: [ExerciseEntry(name: "Back Squat", sets: sets)])

            // When she posts it with 0 reps in its second set
            let refused = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .workout, workout: workout))

            // Then it is refused (422), the second set's reps named, and nothing is posted
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.problem().errors?.map(\.field) == ["workout.exercises[0].sets[1].reps"])
            #expect(try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.isEmpty)

            // When she posts it with 1 rep there, then edits that set to 0 reps
            var good = workout
            good.exercises[0].sets?[1].reps = 1
            let post = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .workout, workout: good)
            ).decode(Post.self)
            let edited = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: ana, body: UpdatePostRequest(workout: workout))

            // Then the edit is refused the same way and the post keeps its rep
            #expect(edited.status == .unprocessableContent)
            #expect(try edited.problem().errors?.map(\.field) == ["workout.exercises[0].sets[1].reps"])
            let kept = try await api.call(.get, "/api/v1/posts/\(post.id)", token: ana).decode(Post.self)
            #expect(kept.workout?.exercises.first?.sets?.last?.reps == 1)
        }
    }

    @Test("is refused on the web with the rule's own words beside the set", arguments: StorageBackend.available)
    func web(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, signed in on the web
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/compose")

            // When she logs a squat whose second set has 0 reps
            let refused = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Monday"), ("type", "strength"), ("exercise_name", "Back Squat"),
                    ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "5"),
                    ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "0"),
                ])

            // Then the builder comes back (422) with that set's reps marked, in the words `PostRules` gives the API
            #expect(refused.status == .unprocessableContent)
            let detail = try #require(
                PostRules.problems(
                    kind: .workout, text: "",
                    workout: WorkoutRecord(
                        title: "Monday", type: .strength, startTime: api.clock.now,
                        exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 100, reps: 0)])])
                ).first?.detail)
            let sentence = detail.prefix(1).uppercased() + detail.dropFirst() + "."
            #expect(refused.text.contains(#"aria-invalid="true" aria-describedby="set-0-1-reps-error""#))
            #expect(refused.text.contains(#"<p class="field-error" id="set-0-1-reps-error">\#(sentence)</p>"#))
            // And nothing is posted
            #expect(try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.isEmpty)
        }
    }
}
