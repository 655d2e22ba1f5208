import Foundation
import SpotterKit
import SpotterModels
import Testing

/// SpotterClient against a real server: sessions, refresh, paging, and the retry policy.
@Suite("SpotterClient")
struct SpotterClientTests {
    static let password = "correct horse battery"

    @Test("sign up, read me, sign out; then sign in again")
    func session() async throws {
        try await LiveServer.run { url, _ in
            let client = SpotterClient(baseURL: url)
            let account = try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            #expect(try await client.me() == account)
            try await client.signOut()
            #expect(await client.isSignedIn == false)
            await #expect(throws: SpotterClientError.signedOut) { _ = try await client.me() }
            try await client.signIn(login: "ANA@example.com", password: Self.password)
            #expect(try await client.me().username == "ana")
        }
    }

    @Test("an expired access token is refreshed once, even for calls made at the same time")
    func refresh() async throws {
        try await LiveServer.run { url, clock in
            let transport = CountingTransport()
            let client = SpotterClient(baseURL: url, transport: transport)
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            clock.advance(by: 15 * 60 + 1)  // past the access token's life
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<5 { group.addTask { try await client.me().username } }
                for try await name in group { #expect(name == "ana") }
            }
            #expect(transport.count("/api/v1/auth/refresh") == 1)
            // Had two refreshes spent the same token, the server would have signed this login out.
            #expect(try await client.me().username == "ana")
        }
    }

    @Test("a refresh token the server refuses signs the client out")
    func refreshRefused() async throws {
        try await LiveServer.run { url, clock in
            let client = SpotterClient(baseURL: url)
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            clock.advance(by: 31 * 24 * 3600)  // past the refresh token's life too
            await #expect(throws: SpotterClientError.signedOut) { _ = try await client.me() }
            #expect(await client.isSignedIn == false)
        }
    }

    @Test("feed pages follow their cursors without skips or repeats")
    func paging() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let client = SpotterClient(baseURL: url)
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            var made: [PostID] = []
            for index in 0..<5 {
                made.append(try await client.createPost(CreatePostRequest(kind: .note, text: "Run \(index) #run")).id)
            }
            var seen: [PostID] = []
            var page = try await client.feed(.following, limit: 2)
            seen += page.items.map(\.id)
            while let cursor = page.nextCursor {
                page = try await client.feed(.following, cursor: cursor, limit: 2)
                seen += page.items.map(\.id)
            }
            #expect(seen == made.reversed())
            #expect(try await client.feed(.user("ana")).items.count == 5)
        }
    }

    @Test("a 429 waits as long as Retry-After says, then goes through")
    func tooManyRequests() async throws {
        try await LiveServer.run { url, clock in
            let sleeper = RecordingSleeper(moving: clock)
            let client = SpotterClient(
                baseURL: url, retry: RetryPolicy(maxRetryAfter: .seconds(3600)), sleep: sleeper.sleep)
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            for _ in 0..<10 {
                await #expect(throws: SpotterClientError.self) {
                    try await client.signIn(login: "ana", password: "wrong password!")
                }
            }
            #expect(sleeper.recorded.isEmpty, "a 401 is never retried")
            try await client.signIn(login: "ana", password: Self.password)
            let wait = try #require(sleeper.recorded.first)
            #expect(sleeper.recorded.count == 1)
            #expect(wait > .seconds(60) && wait <= .seconds(15 * 60))
        }
    }

    @Test("server errors and a dead network back off with jitter, at most three tries")
    func backoff() async throws {
        try await LiveServer.run { url, _ in
            let sleeper = RecordingSleeper()
            let flaky = CountingTransport(failFirstWith: [503, 502])
            let client = SpotterClient(baseURL: url, transport: flaky, sleep: sleeper.sleep, random: { 0.5 })
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            #expect(sleeper.recorded == [.milliseconds(250), .milliseconds(500)])
            #expect(flaky.count("/api/v1/auth/signup") == 3)
        }
        let nowhere = SpotterClient(
            baseURL: URL(string: "http://127.0.0.1:9")!, sleep: RecordingSleeper().sleep, random: { 1 })
        await #expect {
            _ = try await nowhere.profile("ana")
        } throws: { error in
            (error as? SpotterClientError)?.isTransient == true
        }
    }

    @Test("other 4xx are not retried, and a problem names the field at fault")
    func clientErrors() async throws {
        try await LiveServer.run { url, _ in
            let sleeper = RecordingSleeper()
            let client = SpotterClient(baseURL: url, sleep: sleeper.sleep)
            do {
                _ = try await client.profile("nobody")
                Issue.record("expected a 404")
            } catch let SpotterClientError.problem(problem) {
                #expect(problem.status == 404)
            }
            do {
                try await client.signUp(email: "not an email", username: "ana", password: Self.password)
                Issue.record("expected a refusal")
            } catch let SpotterClientError.problem(problem) {
                #expect(problem.errors?.map(\.field) == ["email"])
            }
            #expect(sleeper.recorded.isEmpty)
        }
    }
}
