import Foundation
import NIOConcurrencyHelpers
import SpotterCore
import SpotterKit
import SpotterModels
import Testing

/// When the outbox tries a failed action again (issue 24): network failures, 5xx, 408, 429 and 409 "still
/// being processed" never fail an action, they wait, longer each time up to a cap; only a definitive refusal
/// fails one, and says why. Each queue keeps time by a clock the test moves, with no jitter.
@Suite("Outbox retries")
struct OutboxRetryTests {
    @Test("200 actions queued offline never fail however often a drain runs, and land once when the server is back")
    func offlineNeverGivesUp() async throws {
        try await ActionQueueTests.withWorld { world, server in
            // Given Ana's 20 posts, and Bea's outbox
            var posts = [world.post.id]
            for index in 1..<20 {
                posts.append(try await world.ana.createPost(CreatePostRequest(kind: .note, text: "Run \(index)")).id)
            }
            let clock = ManualClock(Date())
            let queue = try ActionQueue(path: nil, client: world.bea(), now: { clock.now }, random: { 1 })

            // When, offline, she gives and takes back kudos on each post nine times and comments on each
            try await server(false)
            for post in posts {
                for toggle in 0..<9 { try await queue.enqueue(.setKudos(post, given: toggle.isMultiple(of: 2))) }
                try await queue.enqueue(.comment(post, CreateCommentRequest(text: "Nice one")))
            }
            // And the outbox drains 50 times, each after every wait has passed
            for _ in 0..<50 {
                clock.advance(by: 3600)
                #expect(await queue.drain().isEmpty)
            }

            // Then none of the 200 failed: they wait, and those tried say the network was why
            #expect(try await queue.failed.isEmpty)
            let waiting = try await queue.pending
            #expect(waiting.count == 200)
            let tried = waiting.filter { $0.attempts > 0 }
            #expect(!tried.isEmpty)
            #expect(tried.allSatisfy { $0.retry?.reason == .network && $0.retry!.nextAttempt > clock.now })

            // When the server is back, and the network with it (a reconnect drains without waiting)
            try await server(true)
            let outcomes = await queue.drain(ignoringBackoff: true)

            // Then all 200 landed, once each, in the order they were made
            #expect(outcomes.count == 200)
            #expect(try await queue.pending.isEmpty)
            for post in posts {
                let seen = try await world.ana.post(post)
                #expect(seen.kudosCount == 1)
                #expect(try await world.ana.comments(on: post).items.map(\.text) == ["Nice one"])
            }
        }
    }

    @Test("5xx, 408 and 429 never exhaust an action: each wait doubles up to 5 minutes, then it lands")
    func serverErrorsBackOff() async throws {
        try await ActionQueueTests.withWorld { world, _ in
            // Given a server that fails Bea's next 12 requests, and her outbox with a follow
            let statuses = [503, 500, 408, 429, 502, 503, 504, 500, 503, 503, 503, 503]
            let flaky = CountingTransport(failFirstWith: statuses)
            let clock = ManualClock(Date())
            let queue = try ActionQueue(
                path: nil, client: world.bea(transport: flaky), now: { clock.now }, random: { 1 })
            try await queue.enqueue(.follow("ana"))
            let path = "/api/v1/users/ana/follow"

            // When the outbox drains each time the follow is due, and once more before
            var waits: [TimeInterval] = []
            var reasons: [PendingRetry.Reason] = []
            for _ in statuses {
                #expect(await queue.drain().isEmpty)
                let retry = try #require(try await queue.pending.first?.retry)
                reasons.append(retry.reason)
                waits.append(Self.seconds(from: clock.now, to: retry.nextAttempt))
                let sent = flaky.count(path)
                #expect(await queue.drain().isEmpty)
                #expect(flaky.count(path) == sent, "a drain sends nothing before the action is due")
                clock.advance(by: retry.nextAttempt.timeIntervalSince(clock.now))
            }

            // Then it was never given up on; each wait doubled, up to the cap
            #expect(waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300])
            #expect(reasons[2] == .server && reasons[3] == .refusedForNow)
            #expect(try await queue.failed.isEmpty)
            // And once the server works, it lands
            if case .landed = await queue.drain().first {} else { Issue.record("the follow should land") }
            #expect(flaky.count(path) == statuses.count + 1)
        }
    }

    @Test("a definitive refusal (422) fails the action at once, keeping the server's reason and the fields at fault")
    func refusalKeepsReason() async throws {
        try await ActionQueueTests.withWorld { world, _ in
            // Given Bea's outbox with a note without text
            let queue = try ActionQueue(path: nil, client: world.bea())
            try await queue.enqueue(.createPost(CreatePostRequest(kind: .note, text: " ")))

            // When it drains
            let outcomes = await queue.drain()

            // Then the server's refusal is surfaced, and kept with the action, which is not sent again
            guard case .refused(_, let problem) = outcomes.first else {
                Issue.record("expected a refusal: \(outcomes)")
                return
            }
            #expect(problem.status == 422)
            let failed = try #require(try await queue.failed.first)
            #expect(failed.failure == "Some fields are not valid. text: is required for a note without photos.")
            #expect(failed.retry == nil)
            #expect(await queue.drain().isEmpty)
        }
    }

    @Test("a 409 'still being processed' is tried again, not failed")
    func stillProcessingIsRetried() async throws {
        try await ActionQueueTests.withWorld { world, _ in
            // Given a first try whose key the server is still processing (its answer, as the server words it)
            let clock = ManualClock(Date())
            let busy = StillProcessing()
            let queue = try ActionQueue(
                path: nil, client: world.bea(transport: busy), now: { clock.now }, random: { 1 })
            try await queue.enqueue(.follow("ana"))

            // When the outbox drains
            #expect(await queue.drain().isEmpty)

            // Then the follow waits, saying why, and lands on the next try
            #expect(try await queue.failed.isEmpty)
            let retry = try #require(try await queue.pending.first?.retry)
            #expect(retry.reason == .stillProcessing)
            #expect(Self.seconds(from: clock.now, to: retry.nextAttempt) == 1)
            clock.advance(by: 2)
            if case .landed = await queue.drain().first {} else { Issue.record("the follow should land") }
        }
    }

    @Test("a post refused by the new-account limit waits for the server's Retry-After, even on a forced drain")
    func rateLimitWaitsForRetryAfter() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountPostsPerHour = 1 }) { url, clock in
            // Given a new account's outbox with two posts, on the server's clock
            let client = SpotterClient(baseURL: url)
            try await client.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let queue = try ActionQueue(path: nil, client: client, now: { clock.now }, random: { 1 })
            try await queue.enqueue(.createPost(CreatePostRequest(kind: .note, text: "Easy run")))
            try await queue.enqueue(.createPost(CreatePostRequest(kind: .note, text: "Second run")))

            // When the outbox drains
            let outcomes = await queue.drain()

            // Then the first landed, and the second waits for the hour the server named, saying why
            #expect(outcomes.count == 1)
            let waiting = try #require(try await queue.pending.first)
            let retry = try #require(waiting.retry)
            #expect(retry.reason == .refusedForNow)
            #expect(retry.detail.hasPrefix("New accounts can post 1 time an hour; you can post again at "))
            #expect(retry.detail.hasSuffix(" (in 60 minutes)."))
            #expect(Self.seconds(from: clock.now, to: retry.nextAttempt) == 3600)
            #expect(try await queue.failed.isEmpty)

            // And a direct call is told the same time, as `retry_at`
            do {
                _ = try await client.createPost(CreatePostRequest(kind: .note, text: "Third run"))
                Issue.record("the third post should be refused")
            } catch let error as SpotterClientError {
                let retryAt = try #require(error.problem?.retryAt)
                #expect(abs(retryAt.timeIntervalSince(clock.now + 3600)) < 1)
            }

            // When the user asks to send everything now
            #expect(await queue.drain(ignoringBackoff: true).isEmpty)
            // Then the refused post still waits for its time, untried
            #expect(try await queue.pending.first?.attempts == 1)

            // When the hour has passed
            clock.advance(by: 3601)
            // Then it lands
            if case .landed = await queue.drain().first {} else { Issue.record("the second post should land") }
        }
    }
}

extension OutboxRetryTests {
    /// The time between two dates to the millisecond: the database keeps times as seconds since 1970, which
    /// moves a `Date` by a few ulps.
    static func seconds(from start: Date, to end: Date) -> Double {
        (end.timeIntervalSince(start) * 1000).rounded() / 1000
    }
}

/// The real network, except that the first request gets the server's 409 for a key still being processed.
final class StillProcessing: HTTPTransport {
    private let answered = NIOLockedValueBox(false)

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        guard
            answered.withLockedValue({ done in
                defer { done = true }; return done
            })
        else {
            let detail = "A request with this Idempotency-Key is still being processed."
            let problem = Problem(
                title: "Conflict", status: 409, detail: detail,
                errors: [FieldError(field: "Idempotency-Key", detail: detail)])
            return HTTPResponseData(
                status: 409, headers: ["Content-Type": "application/problem+json"],
                body: try WireJSON.encoder().encode(problem))
        }
        return try await URLSessionTransport().send(request)
    }
}
