import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Sign-in throttling")
struct ThrottleTests {
    @Test(
        "failed sign-ins to one account are throttled with Retry-After, then allowed again",
        arguments: StorageBackend.available)
    func perAccount(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.throttle = .init(perAccount: 3, perAddress: 100, window: 600) })
        {
            api in
            // Given three failures
            _ = try await api.signup("ana")
            for _ in 0..<3 { #expect(try await api.signin("ana", password: "wrong password").status == .unauthorized) }
            // When even the right password is tried
            let throttled = try await api.signin("ana")
            // Then it waits
            #expect(throttled.status == .tooManyRequests)
            let retryAfter = try #require(throttled.headers[.retryAfter].flatMap(Int.init))
            #expect((1...600).contains(retryAfter))
            #expect(try throttled.problem().status == 429)
            // And after the window it works again
            api.clock.advance(by: 601)
            #expect(try await api.signin("ana").status == .ok)
        }
    }

    @Test("failed sign-ins from one address are throttled across accounts", arguments: StorageBackend.available)
    func perAddress(backend: StorageBackend) async throws {
        try await TestApp.run(
            backend,
            configure: {
                $0.throttle = .init(perAccount: 100, perAddress: 4, window: 600)
                $0.trustForwardedFor = true
            }
        ) { api in
            let attacker: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"]
            let someoneElse: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.7"]
            _ = try await api.signup("ana")
            for name in ["bea", "cai", "dee", "eve"] {
                #expect(try await api.signin(name, password: "guess guess", headers: attacker).status == .unauthorized)
            }
            #expect(try await api.signin("ana", headers: attacker).status == .tooManyRequests)
            #expect(try await api.signin("ana", headers: someoneElse).status == .ok)
        }
    }

    @Test(
        "without a trusted proxy, failures are counted by the socket's own address and X-Forwarded-For is ignored",
        arguments: StorageBackend.available)
    func perPeerAddress(backend: StorageBackend) async throws {
        try await TestApp.runLive(
            backend, configure: { $0.throttle = .init(perAccount: 100, perAddress: 4, window: 600) }
        ) { api, _ in
            _ = try await api.signup("ana")
            for (index, name) in ["bea", "cai", "dee", "eve"].enumerated() {
                let claimed: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.\(index)"]
                #expect(try await api.signin(name, password: "guess guess", headers: claimed).status == .unauthorized)
            }
            #expect(try await api.signin("ana").status == .tooManyRequests)
        }
    }

    @Test("a success clears the account's failures")
    func successClears() async throws {
        let clock = ManualClock()
        let throttle = SigninThrottle(limits: .init(perAccount: 2, perAddress: 100, window: 60), clock: clock)
        await throttle.recordFailure(login: "Ana", address: nil)
        await throttle.recordSuccess(login: "ana")
        await throttle.recordFailure(login: "ana", address: nil)
        try await throttle.check(login: "ANA", address: nil)
        await throttle.recordFailure(login: "ana", address: nil)
        await #expect(throws: SpotterError.self) { try await throttle.check(login: "ana", address: nil) }
    }
}

@Suite("Idempotency keys")
struct IdempotencyTests {
    static func key(_ value: String) -> HTTPFields { [HTTPField.Name("Idempotency-Key")!: value] }

    @Test("a repeat returns the first response and changes nothing", arguments: StorageBackend.available)
    func replay(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given a change made with a key
            let tokens = try await api.signup("ana")
            let first = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "First"),
                headers: Self.key("k-1"))
            #expect(first.status == .ok)
            // And a later change made without it
            _ = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "Second"))
            // When the first request is retried
            let retry = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "First"),
                headers: Self.key("k-1"))
            // Then it gets the first response back and does not apply again
            #expect(retry.status == .ok)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(retry.text == first.text)
            let me = try await api.call(.get, "/api/v1/me", token: tokens.accessToken).decode(Account.self)
            #expect(me.displayName == "Second")
        }
    }

    @Test("the same key with a different body is 422", arguments: StorageBackend.available)
    func mismatch(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let tokens = try await api.signup("ana")
            _ = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "One"),
                headers: Self.key("k-2"))
            let other = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "Two"),
                headers: Self.key("k-2"))
            #expect(other.status == .unprocessableContent)
            #expect(try other.problem().errors?.first?.field == "Idempotency-Key")
            let me = try await api.call(.get, "/api/v1/me", token: tokens.accessToken).decode(Account.self)
            #expect(me.displayName == "One")
        }
    }

    @Test(
        "the same JSON with its keys in another order and other spacing replays; a different body is still 422",
        arguments: StorageBackend.available)
    func canonicalJSON(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given a post made with a key
            let ana = try await api.user("ana")
            let first = try await api.call(
                .post, "/api/v1/posts", token: ana,
                json: #"{"kind":"note","text":"Deadlifts, 5x5","visibility":"public"}"#,
                headers: Self.key("k-json"))
            #expect(first.status == .created)
            // When it is retried by a client whose encoder orders keys differently and spaces them out
            let retry = try await api.call(
                .post, "/api/v1/posts", token: ana,
                json: "{\n  \"visibility\" : \"public\",\n  \"text\" : \"Deadlifts, 5x5\",\n  \"kind\" : \"note\"\n}",
                headers: Self.key("k-json"))
            // Then it is the same request: replayed, with the first post
            #expect(retry.status == .created)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try retry.decode(Post.self).id == first.decode(Post.self).id)
            // And a body that means something else is still refused
            let other = try await api.call(
                .post, "/api/v1/posts", token: ana,
                json: #"{"text":"Deadlifts, 5x3","kind":"note","visibility":"public"}"#,
                headers: Self.key("k-json"))
            #expect(other.status == .unprocessableContent)
            #expect(try other.problem().errors?.first?.field == "Idempotency-Key")
            let posts = try await api.call(.get, "/api/v1/users/ana/posts", token: ana).decode(Page<Post>.self)
            #expect(posts.items.count == 1)
        }
    }

    @Test(
        "duplicates sent while the first is in flight run it once: each gets its post or a 409",
        arguments: StorageBackend.available)
    func concurrentDuplicates(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given an author
            let ana = try await api.user("ana")
            // When one request is sent eight times at once with one key
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await api.call(
                            .post, "/api/v1/posts", token: ana, json: #"{"kind":"note","text":"Hill repeats"}"#,
                            headers: Self.key("k-race"))
                    }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            // Then it ran once: every answer is that post (first or replayed), or a 409 to retry later
            let created = answers.filter { $0.status == .created }
            let replayed = created.filter { $0.headers[HTTPField.Name("Idempotent-Replayed")!] == "true" }
            #expect(replayed.count == created.count - 1)
            #expect(answers.allSatisfy { $0.status == .created || $0.status == .conflict })
            #expect(Set(try created.map { try $0.decode(Post.self).id }).count == 1)
            let posts = try await api.call(.get, "/api/v1/users/ana/posts", token: ana).decode(Page<Post>.self)
            #expect(posts.items.count == 1)
        }
    }

    @Test("keys are scoped per user", arguments: StorageBackend.available)
    func scopedPerUser(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.signup("ana")
            let bea = try await api.signup("bea")
            for (tokens, name) in [(ana, "Ana"), (bea, "Bea")] {
                let response = try await api.call(
                    .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: name),
                    headers: Self.key("shared-key"))
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            }
            let bMe = try await api.call(.get, "/api/v1/me", token: bea.accessToken).decode(Account.self)
            #expect(bMe.displayName == "Bea")
        }
    }

    @Test("a refused request is replayed as refused; a malformed key is 400", arguments: StorageBackend.available)
    func errorsAreStored(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let tokens = try await api.signup("ana")
            let bad = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: ""),
                headers: Self.key("k-3"))
            #expect(bad.status == .unprocessableContent)
            let again = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: ""),
                headers: Self.key("k-3"))
            #expect(again.status == .unprocessableContent)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let badKey = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "x"),
                headers: Self.key(String(repeating: "k", count: 300)))
            #expect(badKey.status == .badRequest)
            #expect(try badKey.problem().errors?.first?.field == "Idempotency-Key")
        }
    }

    @Test(
        "a 429 is not replayed: the same key goes through once the wait is over, and each 429 says how long",
        arguments: StorageBackend.available)
    func rateLimitIsNotStored(backend: StorageBackend) async throws {
        try await TestApp.run(
            backend,
            configure: {
                $0.postRules.newAccountPostsPerHour = 1
                $0.tokenLifetimes.accessToken = 2 * 3600  // the test waits out the hour
            }
        ) { api in
            let ana = try await api.user("ana")
            _ = try await api.post(ana, "First of the hour")
            let body = CreatePostRequest(kind: .note, text: "Second of the hour")
            for _ in 0..<2 {
                let limited = try await api.call(
                    .post, "/api/v1/posts", token: ana, body: body, headers: Self.key("k-5"))
                #expect(limited.status == .tooManyRequests)
                #expect(limited.headers[.retryAfter] == "3600")
                #expect(limited.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            }
            api.clock.advance(by: 3601)
            let later = try await api.call(.post, "/api/v1/posts", token: ana, body: body, headers: Self.key("k-5"))
            #expect(later.status == .created)
        }
    }

    @Test("a key is forgotten after 24 hours", arguments: StorageBackend.available)
    func retention(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.tokenLifetimes.accessToken = 48 * 3600 }) { api in
            let tokens = try await api.signup("ana")
            _ = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "One"),
                headers: Self.key("k-4"))
            api.clock.advance(by: 24 * 3600 + 1)
            let later = try await api.call(
                .patch, "/api/v1/me", token: tokens.accessToken, body: UpdateAccountRequest(displayName: "Two"),
                headers: Self.key("k-4"))
            #expect(later.status == .ok)
            #expect(try later.decode(Account.self).displayName == "Two")
        }
    }
}
