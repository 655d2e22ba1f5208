import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// What the OpenAPI document allows, the server takes; what the document refuses, the server refuses the way
/// the document says (issue 24, item 7, found by schemathesis' positive and negative checks).
@Suite("What the document allows, the server takes")
struct DocumentAgreementTests {
    @Test("an empty cursor is the first page on every paged route", arguments: StorageBackend.available)
    func emptyCursor(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, with a post
            let ana = try await api.user("ana")
            let post = try await api.post(ana, "Deadlifts today #legday")
            // When each paged route is asked for `cursor=` (and `since=`, where it takes one)
            let paged = [
                "/api/v1/users/ana/posts", "/api/v1/users/ana/followers", "/api/v1/users/ana/following",
                "/api/v1/me/follow-requests", "/api/v1/posts/\(post.id)/comments", "/api/v1/feeds/following",
                "/api/v1/feeds/featured", "/api/v1/feeds/global", "/api/v1/feeds/tags/legday", "/api/v1/exercises",
                "/api/v1/workout-templates", "/api/v1/notifications",
            ]
            for path in paged {
                let response = try await api.call(.get, "\(path)?cursor=", token: ana)
                // Then it is the first page, as if no cursor had been given
                #expect(response.status == .ok, "\(path): \(response.text)")
            }
            let since = try await api.call(.get, "/api/v1/feeds/global?since=", token: ana)
            #expect(try since.decode(Page<Post>.self).items.map(\.id) == [post.id])
        }
    }

    @Test("a number too large for its field is a 422 naming the field")
    func hugeInteger() async throws {
        try await TestApp.run(.sqlite) { api in
            // Given Ana
            let ana = try await api.user("ana")
            // When she sends an integer beyond 64 bits where the document has a bounded integer
            let preferences = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana,
                json: #"{"max_per_hour": 18446744073709551616}"#)
            // Then the answer is the document's 422, naming the field
            #expect(preferences.status == .unprocessableContent)
            #expect(try preferences.problem().errors?.map(\.field) == ["max_per_hour"])

            // And deep in a workout, the field is named by its whole path
            let workout = #"""
                {"kind": "workout", "workout": {"title": "Legs", "type": "strength",
                 "start_time": "2026-11-20T10:00:00Z", "end_time": "2026-11-20T11:00:00Z",
                 "exercises": [{"name": "Squat", "sets": [{"weight_kg": 100, "reps": 5},
                   {"weight_kg": 100.5, "reps": 99999999999999999999}]}]}}
                """#
            let post = try await api.call(.post, "/api/v1/posts", token: ana, json: workout)
            #expect(post.status == .unprocessableContent)
            #expect(try post.problem().errors?.map(\.field) == ["workout.exercises[0].sets[1].reps"])

            // And however many other numbers could be the one, the one is found
            let sets = (0..<300).map { #"{"weight_kg": \#(Double($0) + 0.5), "reps": 5}"# }.joined(separator: ",")
            let many = #"""
                {"kind": "workout", "workout": {"title": "Legs", "type": "strength",
                 "start_time": "2026-11-20T10:00:00Z", "end_time": "2026-11-20T11:00:00Z",
                 "exercises": [{"name": "Squat", "sets": [{"weight_kg": 1.5, "reps": 1e30}, \#(sets)]}]}}
                """#
            let found = try await api.call(.post, "/api/v1/posts", token: ana, json: many)
            #expect(try found.problem().errors?.map(\.field) == ["workout.exercises[0].sets[0].reps"])

            // And a fraction where a whole number belongs is the 400 of a wrong type, naming the field
            let fraction = try await api.call(
                .put, "/api/v1/notifications/preferences", token: ana, json: #"{"max_per_hour": 2.5}"#)
            #expect(fraction.status == .badRequest)
            #expect(try fraction.problem().errors?.map(\.field) == ["max_per_hour"])

            // And a number where text belongs is still that field's wrong type, however large
            let email = try await api.call(
                .post, "/api/v1/auth/signup", json: #"{"email": 1e999999, "username": "bea", "password": "x"}"#)
            #expect(email.status == .badRequest)
            #expect(try email.problem().errors?.map(\.field) == ["email"])
        }
    }

    @Test(
        "every RFC 3339 form of a time is read, and names the same instant",
        arguments: [
            "2026-11-20T10:00:00Z", "2026-11-20t10:00:00z", "2026-11-20T10:00:00.250Z", "2026-11-20T12:00:00+02:00",
            "2026-11-21T09:59:00+23:59", "2026-11-19T10:01:00-23:59",
        ])
    func rfc3339(text: String) async throws {
        try await TestApp.run(.sqlite) { api in
            // Given Ana
            let ana = try await api.user("ana")
            // When she logs a workout whose start is written this way
            let response = try await api.call(.post, "/api/v1/posts", token: ana, json: Self.workout(startingAt: text))
            // Then it is taken, starting at 10:00 UTC
            #expect(response.status == .created, "\(text): \(response.text)")
            let post = try response.decode(Post.self)
            #expect(post.workout?.startTime == Date(timeIntervalSince1970: 1_795_168_800))
        }
    }

    /// A workout post whose start time is `text` as sent, ending 2026-11-20 at 11:00 UTC.
    static func workout(startingAt text: String) -> String {
        """
        {"kind": "workout", "workout": {"title": "Legs", "type": "strength",
         "start_time": "\(text)", "end_time": "2026-11-20T11:00:00Z",
         "exercises": [{"name": "Squat", "sets": [{"weight_kg": 100, "reps": 5}]}]}}
        """
    }

    @Test(
        "what is not an RFC 3339 time is a 400 naming the field",
        arguments: [
            "2026-11-20 10:00:00Z", "2026-11-20T10:00:00", "2026-13-20T10:00:00Z", "2026-02-30T10:00:00Z",
            "2026-11-20T24:00:00Z", "2026-11-20T10:00:00+24:00", "2026-11-20T10:00Z", "20261120T100000Z",
        ])
    func notRFC3339(text: String) async throws {
        try await TestApp.run(.sqlite) { api in
            let ana = try await api.user("ana")
            let response = try await api.call(.post, "/api/v1/posts", token: ana, json: Self.workout(startingAt: text))
            #expect(response.status == .badRequest, "\(text)")
            #expect(try response.problem().errors?.map(\.field) == ["workout.start_time"])
        }
    }

    @Test("a password's length is counted in characters, as the document counts it; its bytes only at the top")
    func passwordCharacters() async throws {
        try await TestApp.run(.sqlite) { api in
            // Given seven characters that take fourteen bytes
            let seven = try await api.call(
                .post, "/api/v1/auth/signup",
                body: SignupRequest(email: "ana@example.com", username: "ana", password: "äöüäöüä"))
            // Then they are too short, as the document's minLength says
            #expect(seven.status == .unprocessableContent)
            #expect(try seven.problem().errors?.map(\.field) == ["password"])
            // And eight are enough
            let eight = try await api.call(
                .post, "/api/v1/auth/signup",
                body: SignupRequest(email: "ana@example.com", username: "ana", password: "äöüäöüäö"))
            #expect(eight.status == .created)
            // And 37 characters of 74 bytes are more than bcrypt reads, as the document says
            let long = try await api.call(
                .post, "/api/v1/auth/signup",
                body: SignupRequest(
                    email: "bea@example.com", username: "bea", password: String(repeating: "é", count: 37)))
            #expect(long.status == .unprocessableContent)
            #expect(try long.problem().errors?.first?.detail.contains("72 bytes") == true)
        }
    }

    @Test("a 150-character device token registered by POST can be deleted", arguments: StorageBackend.available)
    func longDeviceToken(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's device, with a token of 150 hex digits
            let ana = try await api.user("ana")
            let token = String(repeating: "ab", count: 75)
            let added = try await api.call(
                .post, "/api/v1/notifications/devices", token: ana, body: DeviceRegistration(token: token))
            #expect(added.status == .noContent)
            // When she removes it by its token
            let removed = try await api.call(.delete, "/api/v1/notifications/devices/\(token)", token: ana)
            // Then it is gone
            #expect(removed.status == .noContent, "\(removed.text)")
        }
    }

    @Test("a long path value is judged as what it names, not called missing")
    func longPathValues() async throws {
        try await TestApp.run(.sqlite) { api in
            let ana = try await api.user("ana")
            let long = String(repeating: "a", count: 150)
            let requests: [(HTTPRequest.Method, String)] = [
                (.get, "/api/v1/users/\(long)"), (.post, "/api/v1/users/\(long)/follow"),
                (.post, "/api/v1/notifications/groups/\(long)/archive"),
            ]
            for (method, path) in requests {
                let response = try await api.call(method, path, token: ana)
                #expect(response.status == .notFound, "\(method) \(path): \(response.text)")
            }
        }
    }

    @Test("a path value is read percent-decoded, so a tag in any script finds its posts")
    func percentDecodedPath() async throws {
        try await TestApp.run(.sqlite) { api in
            // Given a post tagged #straße
            let ana = try await api.user("ana")
            let post = try await api.post(ana, "Long run along the #straße")
            // When the tag's feed is asked for with the tag percent-encoded, as a URL carries it
            let feed = try await api.feed("/api/v1/feeds/tags/stra%C3%9Fe", token: nil)
            // Then the post is there
            #expect(feed.items.map(\.id) == [post.id])
            // And a control character, which no name holds, is refused naming the parameter (the text rule)
            let nul = try await api.call(.get, "/api/v1/users/ana%00", token: ana)
            #expect(nul.status == .unprocessableContent)
            #expect(nul.text.contains(#""field":"username""#))
        }
    }

    @Test("a text limit counts code points as sent, as the document's maxLength does")
    func textLengths() async throws {
        try await TestApp.run(.sqlite) { api in
            // Given Ana
            let ana = try await api.user("ana")
            func exercise(named name: String) async throws -> TestResponse {
                try await api.call(
                    .post, "/api/v1/exercises", token: ana, body: CreateExerciseTemplateRequest(name: name))
            }
            // When a name is 60 letters with combining accents: 60 characters to a reader, 120 code points
            let accented = try await exercise(named: String(repeating: "e\u{301}", count: 60))
            // Then it is over the document's 100, as the document counts
            #expect(try accented.problem().errors?.map(\.field) == ["name"])
            // And 100 letters and a space are 101, although the name is stored trimmed
            let spaced = try await exercise(named: String(repeating: "a", count: 100) + " ")
            #expect(try spaced.problem().errors?.map(\.field) == ["name"])
            // And exactly 100 are taken, and blank is not a name
            #expect(try await exercise(named: String(repeating: "a", count: 100)).status == .created)
            #expect(try await exercise(named: " \n ").status == .unprocessableContent)
        }
    }
}
