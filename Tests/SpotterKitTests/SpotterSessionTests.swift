import Foundation
import NIOConcurrencyHelpers
import SpotterKit
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Session")
struct SpotterSessionTests {
    @Test("kudos given while the server is down land when the socket reconnects; background and sign-out stop all")
    func lifecycle() async throws {
        let port = try await LiveServer.freePort()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        try await StorageBackend.sqlite.withIsolatedStorage { storage in
            var server = try await LiveServer.start(storage: storage, port: port)
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let post = try await ana.createPost(CreatePostRequest(kind: .note, text: "Track session #run"))
            let session = try SpotterSession(baseURL: url, folder: nil, tokens: MemoryTokenStore())
            try await session.client.signUp(
                email: "bea@example.com", username: "bea", password: "correct horse battery")
            await session.foreground()
            try await Self.eventually { await session.realtime.phase == .open }

            server.cancel()
            _ = await server.result
            try await session.outbox.enqueue(.setKudos(post.id, given: true))
            #expect(await session.outbox.drain().isEmpty, "the server is down")
            server = try await LiveServer.start(storage: storage, port: port)
            // No drain called here: the reconnect does it.
            try await Self.eventually(timeout: .seconds(15)) { (try? await session.outbox.pending.isEmpty) == true }
            #expect(try await ana.post(post.id).kudosCount == 1)

            await session.background()
            #expect(await session.realtime.phase == .stopped)
            await session.signOut()
            #expect(await session.client.isSignedIn == false)
            server.cancel()
            _ = await server.result
        }
    }

    static func eventually(
        // Generous: the whole suite shares two cores with a server process, and a reconnect's backoff.
        timeout: Duration = .seconds(15), _ condition: @Sendable () async -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("condition not met within \(timeout)")
    }
}

@Suite("Session database")
struct SpotterSessionDatabaseTests {
    @Test("a session takes over the outbox and analytics files an earlier version kept, and deletes them")
    func earlierFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nowhere = URL(string: "http://127.0.0.1:9")!
        let client = SpotterClient(baseURL: nowhere, retry: .none)
        // Given an action and an event an earlier version left in its own files
        let post = PostID(rawValue: UUIDv7.make())
        let earlierOutbox = try ActionQueue(path: folder.appendingPathComponent("outbox.sqlite").path, client: client)
        let queued = try await earlierOutbox.enqueue(.setKudos(post, given: true))
        let earlierAnalytics = try AnalyticsTracker(
            path: folder.appendingPathComponent("analytics.sqlite").path, client: client)
        await earlierAnalytics.track("app.open")
        _ = try AppDatabase(path: folder.appendingPathComponent("cache.sqlite").path)

        // When this version opens a session on the folder
        let session = try SpotterSession(
            baseURL: nowhere, folder: folder, tokens: MemoryTokenStore(), transport: Unreachable(), retry: .none)

        // Then the action waits with its idempotency key, the event waits, and only the one file is left
        let pending = try await session.outbox.pending
        #expect(pending.map(\.action) == [.setKudos(post, given: true)])
        #expect(pending.map(\.idempotencyKey) == [queued.idempotencyKey])
        #expect(await session.analytics.waiting == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sqlite") }
        #expect(files == ["spotter.sqlite"])
    }
}
