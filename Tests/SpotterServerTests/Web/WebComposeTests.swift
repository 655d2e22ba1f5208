import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's compose page")
struct WebComposeTests {
    @Test("a run logged on the web keeps its distance and time and shows its pace", arguments: StorageBackend.available)
    func cardio(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, signed in on the web
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let compose = try await ana.get("/compose")
            #expect(compose.text.contains(#"name="exercise_distance""#))
            #expect(compose.text.contains(#"<option value="emom">EMOM</option>"#))

            // When she logs a 5 km run in 25:00
            let posted = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Easy run"), ("type", "cardio"), ("duration_min", ""),
                    ("exercise_name", "Run"), ("exercise_distance", "5"), ("exercise_distance_unit", "km"),
                    ("exercise_time", "25:00"), ("set_exercise", "0"), ("set_weight", ""), ("set_reps", ""),
                    ("text", "Sunny"), ("visibility", "public"),
                ])

            // Then it is posted, with the distance in metres, the time in seconds and the workout 25 min long
            #expect(posted.status == .seeOther)
            let page = try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self)
            let workout = try #require(page.items.first?.workout)
            #expect(workout.type == .cardio)
            #expect(
                workout.exercises == [
                    ExerciseEntry(name: "Run", cardio: CardioMetrics(distanceM: 5000, durationS: 1500))
                ])
            #expect(workout.duration == TimeInterval(1500))
            // And the post reads "Cardio", the distance, time and pace
            let following = try await ana.get("/feed/following")
            #expect(following.text.contains(#"<span class="tag">Cardio</span> Easy run"#))
            #expect(following.text.contains("5 km · 25:00 · 5:00 /km"))
        }
    }

    @Test(
        "a refused workout comes back with everything typed and the wrong field marked",
        arguments: StorageBackend.available)
    func errorKeepsEverything(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, signed in on the web
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/compose")

            // When she posts a set with a weight and no reps
            let refused = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Heavy Monday"), ("type", "emom"), ("duration_min", "50"),
                    ("done_at", "2020-03-04T18:30"),
                    ("exercise_name", "Back Squat"), ("exercise_distance", ""), ("exercise_distance_unit", "km"),
                    ("exercise_time", ""), ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "5"),
                    ("set_exercise", "0"), ("set_weight", "105"), ("set_reps", ""),
                    ("exercise_name", "Bench Press"), ("exercise_distance", ""), ("exercise_distance_unit", "km"),
                    ("exercise_time", ""), ("set_exercise", "1"), ("set_weight", "70"), ("set_reps", "8"),
                    ("text", "Felt strong"), ("visibility", "followers"),
                ])

            // Then the builder comes back (422) with every field as she typed it
            #expect(refused.status == .unprocessableContent)
            let html = refused.text
            #expect(
                html.contains(
                    #"id="title" name="title" type="text" required maxlength="120" placeholder="Heavy Monday" value="Heavy Monday""#
                ))
            #expect(html.contains(#"<option value="emom" selected>EMOM</option>"#))
            #expect(html.contains(#"value="50""#))
            #expect(html.contains(#"value="2020-03-04T18:30""#))
            #expect(html.contains(#"value="Back Squat""#))
            #expect(html.contains(#"value="Bench Press""#))
            #expect(html.contains(#"value="105""#))
            #expect(html.contains(#"value="70""#))
            #expect(html.contains(#"placeholder="Felt strong. #legday">Felt strong</textarea>"#))
            #expect(
                html.contains(#"<textarea id="note-text" name="text" rows="3" required maxlength="5000"></textarea>"#))
            #expect(html.contains(#"<option value="followers" selected>Followers</option>"#))
            // And the reps of set 2 are marked, with the message beside them and in the summary
            #expect(html.contains(#"id="set-0-1-reps" name="set_reps""#))
            #expect(html.contains(#"aria-invalid="true" aria-describedby="set-0-1-reps-error""#))
            #expect(html.contains(#"<p class="field-error" id="set-0-1-reps-error">Enter the reps"#))
            #expect(html.contains(##"<a href="#set-0-1-reps">Exercise 1, set 2 reps: Enter the reps"##))
            // And nothing was posted
            #expect(try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.isEmpty)

            // When a rule of the service refuses it (an exercise without a name), that field is marked too
            let unnamed = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Heavy Monday"), ("type", "strength"),
                    ("exercise_name", "Back Squat"), ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "5"),
                    ("exercise_name", ""), ("set_exercise", "1"), ("set_weight", "70"), ("set_reps", "8"),
                ])
            #expect(unnamed.status == .unprocessableContent)
            #expect(unnamed.text.contains(#"aria-invalid="true" aria-describedby="exercise-1-error""#))
        }
    }

    @Test(
        "a note keeps its text when refused and can be posted for followers only", arguments: StorageBackend.available)
    func noteVisibility(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let compose = try await ana.get("/compose")
            #expect(compose.text.contains(#"<select id="note-visibility" name="visibility">"#))
            // When Ana posts a note only she may see
            let posted = try await ana.post(
                "/posts", [("kind", "note"), ("text", "Rest day"), ("visibility", "private")])
            #expect(posted.status == .seeOther)
            // Then it is kept as "only me", and nobody else sees it
            let token = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let own = try await api.call(.get, "/api/v1/users/ana/posts", token: token).decode(Page<Post>.self)
            #expect(own.items.map(\.visibility) == [.private])
            #expect(try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.isEmpty)
            // And a note too long is drawn again in its own box, marked
            let long = String(repeating: "a", count: 5001)
            let refused = try await ana.post("/posts", [("kind", "note"), ("text", long), ("visibility", "followers")])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.text.contains(#"aria-invalid="true" aria-describedby="note-text-error">\#(long)</textarea>"#))
            #expect(refused.text.contains(#"<option value="followers" selected>Followers</option>"#))
        }
    }

    @Test(
        "a lb lifter enters and reads pounds; storage stays kg and others read kg", arguments: StorageBackend.available)
    func pounds(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, who reads pounds and miles
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let token = try await api.signin("ana").decode(TokenResponse.self).accessToken
            try await api.call(.patch, "/api/v1/me", token: token, json: #"{"units":"lb"}"#)
            let compose = try await ana.get("/compose")
            #expect(compose.text.contains("Weight (lb)"))
            #expect(compose.text.contains(#"<option value="mi" selected>mi</option>"#))

            // When she logs 225 lb × 5 and a 3.1 mi run
            let posted = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Squat and run"), ("type", "strength"),
                    ("exercise_name", "Back Squat"), ("exercise_distance", ""), ("exercise_distance_unit", "mi"),
                    ("exercise_time", ""), ("set_exercise", "0"), ("set_weight", "225"), ("set_reps", "5"),
                    ("exercise_name", "Run"), ("exercise_distance", "3.1"), ("exercise_distance_unit", "mi"),
                    ("exercise_time", "31:00"),
                ])
            #expect(posted.status == .seeOther)

            // Then it is stored in kilograms and metres
            let post = try #require(
                try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.first)
            let squat = try #require(post.workout?.exercises.first?.sets?.first)
            #expect(abs(squat.weightKg - 102.058) < 0.001)
            #expect(abs((post.workout?.exercises.last?.cardio?.distanceM ?? 0) - 4988.97) < 0.01)
            // And she reads pounds and miles
            let mine = try await ana.get("/feed/following")
            #expect(mine.text.contains("5 × 225 lb"))
            #expect(mine.text.contains("3.1 mi · 31:00 · 10:00 /mi"))
            // And her records too, when a heavier squat makes one
            let heavier = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Heavier"), ("type", "strength"), ("exercise_name", "Back Squat"),
                    ("set_exercise", "0"), ("set_weight", "235"), ("set_reps", "2"),
                ])
            #expect(heavier.status == .seeOther)
            #expect(try await ana.get("/feed/following").text.contains("heaviest 235 lb"))
            // While someone signed out reads kilograms and kilometres
            var guest = WebBrowser(api)
            let shown = try await guest.get("/posts/\(post.id)")
            #expect(shown.text.contains("5 × 102.1 kg"))
            #expect(shown.text.contains("4.99 km · 31:00 · 6:13 /km"))
        }
    }

    @Test(
        "the date and time a workout was done is read in the person's time zone, not in the future",
        arguments: StorageBackend.available)
    func doneAt(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana in New York
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let token = try await api.signin("ana").decode(TokenResponse.self).accessToken
            try await api.call(.patch, "/api/v1/me", token: token, json: #"{"time_zone":"America/New_York"}"#)
            let zone = try #require(TimeZone(identifier: "America/New_York"))
            let compose = try await ana.get("/compose")
            #expect(compose.text.contains(#"value="\#(WorkoutDraft.localText(api.clock.now, in: zone))""#))
            let fields: (String) -> [(String, String)] = { doneAt in
                [
                    ("kind", "workout"), ("title", "Morning lift"), ("type", "strength"), ("duration_min", "45"),
                    ("done_at", doneAt), ("exercise_name", "Deadlift"), ("set_exercise", "0"), ("set_weight", "140"),
                    ("set_reps", "3"),
                ]
            }

            // When she says she finished at 07:30 on 2 March 2026, her time
            #expect(try await ana.post("/posts", fields("2026-03-02T07:30")).status == .seeOther)

            // Then the workout ran 06:45 to 07:30 New York time (11:45 to 12:30 UTC)
            let workout = try #require(
                try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.first?.workout)
            #expect(workout.endTime == ISO8601DateFormatter().date(from: "2026-03-02T12:30:00Z"))
            #expect(workout.startTime == ISO8601DateFormatter().date(from: "2026-03-02T11:45:00Z"))

            // When she picks a time tomorrow, it is refused and marked
            let tomorrow = WorkoutDraft.localText(api.clock.now.addingTimeInterval(86_400), in: zone)
            let refused = try await ana.post("/posts", fields(tomorrow))
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"aria-invalid="true" aria-describedby="done-at-error""#))
            #expect(refused.text.contains("That is in the future"))
        }
    }

    @Test("dates older than a week read in the viewer's time zone")
    func olderDates() {
        let date = ISO8601DateFormatter().date(from: "2026-03-02T02:00:00Z")!
        let now = date.addingTimeInterval(30 * 86_400)
        #expect(WebFormat.relative(date, now: now) == "2 Mar 2026")
        #expect(WebFormat.relative(date, now: now, timeZone: TimeZone(identifier: "America/New_York")!) == "1 Mar 2026")
    }
}
