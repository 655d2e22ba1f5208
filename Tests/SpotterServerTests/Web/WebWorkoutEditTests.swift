import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// Correcting a workout's exercises, sets and times on its edit page, with the builder (`/posts/<id>/edit`).
@Suite("The web app's workout edit page")
struct WebWorkoutEditTests {
    /// The builder's fields for one exercise of sets, as the form posts them.
    static func fields(
        title: String, exercise: String, sets: [(String, String)], minutes: String, doneAt: String
    ) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("title", title), ("type", "strength"), ("duration_min", minutes), ("done_at", doneAt),
            ("exercise_name", exercise), ("exercise_distance", ""), ("exercise_distance_unit", "km"),
            ("exercise_time", ""),
        ]
        for (weight, reps) in sets { fields += [("set_exercise", "0"), ("set_weight", weight), ("set_reps", reps)] }
        return fields + [("text", "Legs done"), ("visibility", "public")]
    }

    /// `datetime-local`'s text for a moment, in UTC (a new account's time zone).
    static func local(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .gmt
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }

    @Test(
        "the edit page draws the builder with the workout's exercises, sets and times, and saving corrects them",
        arguments: StorageBackend.available)
    func editSets(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's two squat workouts, the second a record at 110 kg for 5 and 3, done for 50 minutes
            var (ana, token) = try await WebPostsTests.person("ana", api)
            let hour = (api.clock.now.timeIntervalSince1970 / 3600).rounded(.down) * 3600
            let day = Date(timeIntervalSince1970: hour - 3 * 86_400)
            let doneAt = Self.local(day + 2 * 86_400 + 3000)
            _ = try await api.workout(token, "Monday", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: day)
            let workout = WorkoutRecord(
                title: "Wednesday", type: .strength, startTime: day + 2 * 86_400, endTime: day + 2 * 86_400 + 3000,
                exercises: [
                    ExerciseEntry(
                        name: "Back Squat",
                        sets: [WorkoutSet(weightKg: 110, reps: 5), WorkoutSet(weightKg: 110, reps: 3)])
                ])
            let post = try await api.call(
                .post, "/api/v1/posts", token: token, body: CreatePostRequest(kind: .workout, workout: workout)
            ).decode(Post.self)
            #expect(!post.personalRecords.isEmpty)

            // When she opens its edit page
            let form = try await ana.get("/posts/\(post.id)/edit")

            // Then the builder holds the exercise, each set, when it was done and how long it took
            #expect(form.status == .ok)
            #expect(form.text.contains(#"id="exercises""#))
            #expect(form.text.contains(#"id="exercise-0" name="exercise_name" type="text""#))
            #expect(form.text.contains(#"value="Back Squat""#))
            #expect(form.text.contains(#"id="set-0-0-weight" name="set_weight""#))
            #expect(form.text.contains(#"id="set-0-1-reps" name="set_reps""#))
            #expect(form.text.contains(#"value="110""#))
            #expect(form.text.contains(#"value="3""#))
            #expect(form.text.contains(#"value="\#(doneAt)""#))
            #expect(
                form.text.contains(#"id="duration" name="duration_min" type="number" min="1" max="1440" value="50""#))
            #expect(form.text.contains(#"value="Wednesday""#))

            // When she saves it with the sets she really did: 100 kg for 5, and 100 kg for 4
            let saved = try await ana.post(
                "/posts/\(post.id)/edit",
                Self.fields(
                    title: "Wednesday", exercise: "Back Squat", sets: [("100", "5"), ("100", "4")], minutes: "50",
                    doneAt: doneAt))

            // Then the post shows them, is no longer a record (100 kg ties Monday), and keeps its time
            #expect(saved.status == .seeOther)
            let edited = try await api.call(.get, "/api/v1/posts/\(post.id)", token: token).decode(Post.self)
            #expect(
                edited.workout?.exercises.first?.sets == [
                    WorkoutSet(weightKg: 100, reps: 5), WorkoutSet(weightKg: 100, reps: 4),
                ])
            #expect(edited.workout?.startTime == day + 2 * 86_400)
            #expect(edited.workout?.endTime == day + 2 * 86_400 + 3000)
            #expect(!edited.personalRecords.contains { $0.kind == .heaviestWeight })
            #expect(edited.text == "Legs done")
            let page = try await ana.get("/posts/\(post.id)")
            #expect(page.text.contains("5 × 100 kg"))
            #expect(page.text.contains(">edited<"))
        }
    }

    @Test(
        "a wrong set comes back marked with everything typed; a form without the builder keeps the numbers",
        arguments: StorageBackend.available)
    func refusedAndOlderForm(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's workout of one set
            var (ana, token) = try await WebPostsTests.person("ana", api)
            let post = try await api.workout(
                token, "Squat day", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: api.clock.now - 7200)
            try await ana.get("/posts/\(post.id)/edit")

            // When she saves a second set without reps
            let refused = try await ana.post(
                "/posts/\(post.id)/edit",
                Self.fields(
                    title: "Squat day", exercise: "Back Squat", sets: [("100", "5"), ("105", "")], minutes: "",
                    doneAt: ""))

            // Then the page comes back (422) with that set marked and what she typed kept
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"aria-invalid="true" aria-describedby="set-0-1-reps-error""#))
            #expect(refused.text.contains(#"<p class="field-error" id="set-0-1-reps-error">Enter the reps"#))
            #expect(refused.text.contains(#"value="105""#))
            #expect(refused.text.contains(#"id="form-summary""#))
            let kept = try await api.call(.get, "/api/v1/posts/\(post.id)", token: token).decode(Post.self)
            #expect(kept.workout?.exercises.first?.sets == [WorkoutSet(weightKg: 100, reps: 5)])

            // When a form without the builder's fields (an older page) changes the title only
            try await ana.get("/posts/\(post.id)/edit")
            let retitled = try await ana.post(
                "/posts/\(post.id)/edit", [("title", "Heavy squats"), ("text", ""), ("visibility", "public")])

            // Then the title changes and the numbers and times stay
            #expect(retitled.status == .seeOther)
            let after = try await api.call(.get, "/api/v1/posts/\(post.id)", token: token).decode(Post.self)
            #expect(after.workout?.title == "Heavy squats")
            #expect(after.workout?.exercises == post.workout?.exercises)
            #expect(after.workout?.endTime == post.workout?.endTime)
        }
    }

    @Test(
        "someone else's edit page has a title and says plainly that only the author edits it",
        arguments: StorageBackend.available)
    func someoneElses(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's workout and Eve, who can see it
            let (_, token) = try await WebPostsTests.person("ana", api)
            var (eve, _) = try await WebPostsTests.person("eve", api)
            let post = try await api.workout(
                token, "Squat day", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: api.clock.now - 7200)

            // When Eve opens its edit page
            let page = try await eve.get("/posts/\(post.id)/edit")

            // Then she is refused with a page that says what and why, titled, and a way back to the post
            #expect(page.status == .forbidden)
            #expect(page.text.contains("<title>You can&#39;t edit this post · Spotter</title>"))
            #expect(page.text.contains("<h1>You can&#39;t edit this post</h1>"))
            #expect(page.text.contains("Only the author can edit this post."))
            #expect(page.text.contains(#"href="/posts/\#(post.id)""#))
            #expect(!page.text.contains(#"id="exercises""#))
        }
    }
}
