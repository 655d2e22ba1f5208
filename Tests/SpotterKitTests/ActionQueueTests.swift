import Foundation
import NIOConcurrencyHelpers
import SpotterKit
import SpotterModels
import SpotterTestSupport
import Testing

/// The outbox against a real server that is down, comes back, or answers into the void.
@Suite("Action queue (outbox)")
struct ActionQueueTests {
    static let password = "correct horse battery"

    /// Ana posts; Bea (signed in through `beaTokens`) acts on it through her outbox.
    struct World {
        let url: URL
        let ana: SpotterClient
        let beaTokens: MemoryTokenStore
        let post: Post

        /// Bea's client without retries of its own: the queue's attempts are the ones under test.
        func bea(transport: any HTTPTransport = URLSessionTransport()) -> SpotterClient {
            SpotterClient(baseURL: url, tokens: beaTokens, transport: transport, retry: .none)
        }
    }

    static func withWorld(
        _ body: @Sendable (World, _ restart: @Sendable (Bool) async throws -> Void) async throws -> Void
    ) async throws {
        let port = try await LiveServer.freePort()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        try await StorageBackend.sqlite.withIsolatedStorage { storage in
            let server = NIOLockedValueBox<Task<Void, any Error>?>(
                try await LiveServer.start(storage: storage, port: port))
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let beaTokens = MemoryTokenStore()
            try await SpotterClient(baseURL: url, tokens: beaTokens)
                .signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let post = try await ana.createPost(CreatePostRequest(kind: .note, text: "Long run #run"))
            let world = World(url: url, ana: ana, beaTokens: beaTokens, post: post)
            /// Stops the server (false) or starts it again (true).
            let switchServer: @Sendable (Bool) async throws -> Void = { up in
                if up {
                    let started = try await LiveServer.start(storage: storage, port: port)
                    server.withLockedValue { $0 = started }
                } else if let running = server.withLockedValue({ $0 }) {
                    running.cancel()
                    _ = await running.result
                }
            }
            try await body(world, switchServer)
            try await switchServer(false)
        }
    }

    @Test("kudos given offline land exactly once when the server is back, in the order they were made")
    func offline() async throws {
        try await Self.withWorld { world, server in
            let queue = try ActionQueue(path: nil, client: world.bea())
            try await server(false)
            try await queue.enqueue(.setKudos(world.post.id, given: true))
            try await queue.enqueue(.setKudos(world.post.id, given: false))
            try await queue.enqueue(.setKudos(world.post.id, given: true))
            #expect(await queue.drain().isEmpty, "nothing lands while the server is down")
            let waiting = try await queue.pending
            #expect(waiting.map(\.attempts) == [1, 0, 0], "later actions on the post wait behind the first")
            // The server is back, and the network with it: a reconnect sends without waiting out the backoff.
            try await server(true)
            let outcomes = await queue.drain(ignoringBackoff: true)
            #expect(outcomes.count == 3)
            #expect(try await queue.pending.isEmpty)
            let seen = try await world.bea().post(world.post.id)
            #expect(seen.kudosCount == 1 && seen.kudosedByMe)
        }
    }

    @Test("a queue killed mid-drain replays on the next start, and the comment lands once")
    func killedMidDrain() async throws {
        try await Self.withWorld { world, _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("outbox.sqlite").path
            // The request reaches the server, but the process "dies" before the answer comes back.
            let first = try ActionQueue(path: path, client: world.bea(transport: AnswerLost()))
            try await first.enqueue(.comment(world.post.id, CreateCommentRequest(text: "Strong finish!")))
            #expect(await first.drain().isEmpty)
            // The next launch opens the same file and sends again, with the same idempotency key, as its first
            // connection does: without waiting out the backoff.
            let second = try ActionQueue(path: path, client: world.bea())
            let outcomes = await second.drain(ignoringBackoff: true)
            #expect(outcomes.count == 1)
            if case .landed = outcomes.first {} else { Issue.record("expected it to land: \(outcomes)") }
            let comments = try await world.ana.comments(on: world.post.id)
            #expect(comments.items.map(\.text) == ["Strong finish!"])
        }
    }

    @Test("a refusal is surfaced for a revert and kept with its reason; the user can put it back in line")
    func failures() async throws {
        try await Self.withWorld { world, _ in
            let queue = try ActionQueue(path: nil, client: world.bea())
            try await queue.enqueue(.comment(PostID(rawValue: UUID()), CreateCommentRequest(text: "Hello?")))
            try await queue.enqueue(.follow("ana"))
            let outcomes = await queue.drain()
            guard case .refused(_, let problem) = outcomes.first else {
                Issue.record("expected a refusal first: \(outcomes)")
                return
            }
            #expect(problem.status == 404)
            if case .landed = outcomes.last {} else { Issue.record("the follow should land: \(outcomes)") }
            let refused = try #require(try await queue.failed.first)
            #expect(refused.failure == problem.detail)
            #expect(try await queue.failed.count == 1)
            // The user can put it back in line: it is sent again, and refused again.
            try await queue.retry(refused.id)
            #expect(try await queue.pending.map(\.id) == [refused.id])
            if case .refused = await queue.drain().first {} else { Issue.record("the retried comment is refused") }
            #expect(try await queue.failed.map(\.id) == [refused.id])
        }
    }
}

/// Sends the request to the server, then loses the answer, as a process killed mid-request would.
struct AnswerLost: HTTPTransport {
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        _ = try await URLSessionTransport().send(request)
        throw URLError(.networkConnectionLost)
    }
}
