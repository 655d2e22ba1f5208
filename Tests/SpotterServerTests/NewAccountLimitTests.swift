import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterCore
@testable import SpotterServer

/// The new-account post limit says when the next post is possible, to the API and the web app alike.
@Suite("The new-account post limit")
struct NewAccountLimitTests {
    @Test(
        "the 6th post in an hour is refused until the hour's oldest post leaves the window, and says when",
        arguments: StorageBackend.available)
    func retryAfterIsExact(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, a new account, who posted once, then four more times ten minutes later
            let ana = try await api.user("ana")
            let first = api.clock.now
            _ = try await api.post(ana, "one")
            api.clock.advance(by: 600)
            for text in ["two", "three", "four", "five"] { _ = try await api.post(ana, text) }
            api.clock.advance(by: 60)

            // When she posts a sixth
            let sixth = try await api.call(
                .post, "/api/v1/posts", token: ana, body: CreatePostRequest(kind: .note, text: "six"))

            // Then it is refused until an hour after her first post, to the second, and the problem says when
            #expect(sixth.status == .tooManyRequests)
            #expect(sixth.headers[.retryAfter] == "2940")
            let problem = try sixth.problem()
            let retryAt = try #require(problem.retryAt)
            #expect(abs(retryAt.timeIntervalSince(first.addingTimeInterval(3600))) < 1)
            #expect(problem.detail?.hasPrefix("New accounts can post 5 times an hour; you can post again at ") == true)
            #expect(problem.detail?.hasSuffix("(in 49 minutes).") == true)

            // And once that time has come, she can post again
            api.clock.advance(by: 2940)
            let fresh = try await api.signin("ana").decode(TokenResponse.self).accessToken  // the old one expired
            let later = try await api.call(
                .post, "/api/v1/posts", token: fresh, body: CreatePostRequest(kind: .note, text: "six"))
            #expect(later.status == .created)
        }
    }

    @Test("the time is told in the author's time zone, rounded up to the minute, in words that count right")
    func detailWording() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC
        let retryAt = now.addingTimeInterval(59)
        #expect(
            PostService.newAccountLimitDetail(limit: 1, retryAt: retryAt, inSeconds: 59, timeZone: "Europe/Paris")
                == "New accounts can post 1 time an hour; you can post again at 09:01 (in 1 minute).")
        #expect(
            PostService.newAccountLimitDetail(
                limit: 5, retryAt: now.addingTimeInterval(1380), inSeconds: 1380, timeZone: "UTC")
                == "New accounts can post 5 times an hour; you can post again at 08:23 (in 23 minutes).")
    }

    @Test("the web app's compose form tells a new account when it can post again", arguments: StorageBackend.available)
    func webMessage(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountPostsPerHour = 1 }) { api in
            // Given Ana, new, who has posted once through the web app
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/compose")
            #expect(try await ana.post("/posts", [("kind", "note"), ("text", "first #gym")]).status == .seeOther)

            // When she posts again within the hour
            try await ana.get("/compose")
            let refused = try await ana.post("/posts", [("kind", "note"), ("text", "second #gym")])

            // Then the form says so, and when she can post next
            #expect(refused.status == .tooManyRequests)
            #expect(refused.text.contains("New accounts can post 1 time an hour; you can post again at "))
            #expect(refused.text.contains("(in 60 minutes)."))
        }
    }
}
