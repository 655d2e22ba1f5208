import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// What the compose page asks for and says: no duration nobody typed, a note's refusal on the note's form, and
/// photo refusals in words.
@Suite("The web app's compose page: times, refusals and photo errors")
struct WebComposeRefusalTests {
    @Test(
        "a workout logged without minutes has no duration, and the form does not offer 60 minutes nobody typed",
        arguments: StorageBackend.available)
    func noInventedDuration(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana on the compose page
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let compose = try await ana.get("/compose")

            // Then its minutes are empty and optional
            #expect(
                compose.text.contains(#"id="duration" name="duration_min" type="number" min="1" max="1440" value="""#))
            #expect(!compose.text.contains(#"value="60""#))
            #expect(compose.text.contains("Minutes (optional)"))

            // When she logs squats done at 18:30 without saying how long they took
            let posted = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Squats"), ("type", "strength"), ("duration_min", ""),
                    ("done_at", "2026-03-02T18:30"), ("exercise_name", "Back Squat"), ("set_exercise", "0"),
                    ("set_weight", "100"), ("set_reps", "5"),
                ])

            // Then the workout was done at 18:30 and has no end time, and its card shows no duration
            #expect(posted.status == .seeOther)
            let post = try #require(
                try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.first)
            let workout = try #require(post.workout)
            #expect(workout.startTime == ISO8601DateFormatter().date(from: "2026-03-02T18:30:00Z"))
            #expect(workout.endTime == nil)
            let page = try await ana.get("/posts/\(post.id)")
            #expect(page.text.contains(#"<p class="workout-stats">"#))
            #expect(!page.text.contains(" min</span>"))
            #expect(!page.text.contains("60 min"))

            // And with minutes typed, it took that long, ending when she said
            _ = try await ana.get("/compose")
            _ = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Bench"), ("type", "strength"), ("duration_min", "40"),
                    ("done_at", "2026-03-03T18:30"), ("exercise_name", "Bench Press"), ("set_exercise", "0"),
                    ("set_weight", "80"), ("set_reps", "5"),
                ])
            let bench = try #require(
                try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.first?.workout)
            #expect(bench.endTime == ISO8601DateFormatter().date(from: "2026-03-03T18:30:00Z"))
            #expect(bench.startTime == ISO8601DateFormatter().date(from: "2026-03-03T17:50:00Z"))
            #expect(try await ana.get("/feed/following").text.contains("40 min"))
        }
    }

    @Test(
        "a note refused by the new-account limit says so on the note's form, not on the workout's",
        arguments: StorageBackend.available)
    func noteRefusalOnItsForm(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountPostsPerHour = 1 }) { api in
            // Given Ana, a new account, who has posted once this hour
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            _ = try await ana.get("/compose")
            #expect(try await ana.post("/posts", [("kind", "note"), ("text", "First #run")]).status == .seeOther)

            // When she posts a second note
            _ = try await ana.get("/compose")
            let refused = try await ana.post("/posts", [("kind", "note"), ("text", "Second #run")])

            // Then the limit is told inside the note's form, with her text kept, and the workout card says nothing
            #expect(refused.status == .tooManyRequests)
            let html = refused.text
            let noteForm = try #require(html.range(of: #"id="note-form""#))
            let before = html[..<noteForm.lowerBound]
            let after = html[noteForm.lowerBound...]
            #expect(!before.contains("New accounts can post"))
            #expect(!before.contains(#"id="form-summary""#))
            #expect(after.contains(#"id="form-summary""#))
            #expect(after.contains("New accounts can post 1 time an hour"))
            #expect(after.contains(">Second #run</textarea>"))
        }
    }

    @Test(
        "a refused note field is marked on the note's form and listed there, not above the workout",
        arguments: StorageBackend.available)
    func noteFieldRefusal(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana on the compose page
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            _ = try await ana.get("/compose")

            // When she posts an empty note
            let refused = try await ana.post("/posts", [("kind", "note"), ("text", "  ")])

            // Then the note's text is marked, and the summary is the note form's
            #expect(refused.status == .unprocessableContent)
            let html = refused.text
            let noteForm = try #require(html.range(of: #"id="note-form""#))
            #expect(!html[..<noteForm.lowerBound].contains(#"id="form-summary""#))
            #expect(html[noteForm.lowerBound...].contains(#"id="form-summary""#))
            #expect(html.contains(#"aria-invalid="true" aria-describedby="note-text-error""#))
            #expect(html.contains(##"<a href="#note-text">"##))
        }
    }

    @Test(
        "a photo of the wrong type or too large is refused in words, the limit named",
        arguments: StorageBackend.available)
    func photoRefusalsInWords(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            // Given Ana, signed in on the web
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            _ = try await ana.get("/compose")

            // When the picker uploads a GIF
            let gif = WebFile(name: "file", filename: "dance.gif", contentType: "image/gif", data: Data("GIF89a".utf8))
            let wrongType = try await ana.postMultipart("/uploads", files: [gif], csrfHeader: true)

            // Then it is told which photos Spotter takes, in words
            #expect(wrongType.status == .unprocessableContent)
            let detail = try #require(try wrongType.problem().errors?.first?.detail)
            #expect(detail.contains("JPEG, PNG, HEIC and WebP"))
            #expect(!detail.contains("image/"))

            // When the form without script sends a photo larger than the limit
            let limit = MediaService.Configuration().limits.maxBytes
            let huge = WebFile(
                name: "photo", filename: "huge.jpg", contentType: "image/jpeg", data: Data(count: limit + 1))
            let refused = try await ana.postMultipart(
                "/compose", fields: [("kind", "note"), ("text", "Look")], files: [huge], csrfHeader: false,
                csrfField: true)

            // Then it names the limit in megabytes
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("huge.jpg: The photo is larger than \(limit >> 20) MB."))
            #expect(!refused.text.contains("\(limit + 1)"))

            // And the picker knows the limit before it uploads anything
            let compose = try await ana.get("/compose")
            #expect(compose.text.contains(#"data-max-bytes="\#(limit)""#))
            #expect(compose.text.contains(#"data-size-limit="\#(limit >> 20) MB""#))
        }
    }
}
