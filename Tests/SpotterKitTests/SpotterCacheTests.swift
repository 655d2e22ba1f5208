import Foundation
import NIOConcurrencyHelpers
import SpotterKit
import SpotterModels
import Testing

/// The caches against a real server, with a clock the test moves.
@Suite("Caches")
struct SpotterCacheTests {
    static let password = "correct horse battery"

    final class TestClock: Sendable {
        private let current = NIOLockedValueBox(Date())
        var now: @Sendable () -> Date { { self.current.withLockedValue { $0 } } }
        func advance(by seconds: TimeInterval) { current.withLockedValue { $0 += seconds } }
    }

    @Test("a fresh feed page comes from memory; a stale one now, refreshed in the background; pull refetches")
    func feedFreshness() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let transport = CountingTransport()
            let client = SpotterClient(baseURL: url, transport: transport)
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            for text in ["Squats #legday", "Rows #back"] {
                _ = try await client.createPost(CreatePostRequest(kind: .note, text: text))
            }
            let clock = TestClock()
            let cache = try SpotterCache(path: nil, client: client, now: clock.now)
            let feedPath = "/api/v1/feeds/following"
            #expect(try await cache.firstPage(.following).map(\.text) == ["Rows #back", "Squats #legday"])
            clock.advance(by: 29)
            _ = try await cache.firstPage(.following)
            #expect(transport.count(feedPath) == 1, "served from memory while fresh")
            _ = try await client.createPost(CreatePostRequest(kind: .note, text: "Bench #chest"))
            clock.advance(by: 2)
            #expect(try await cache.firstPage(.following).count == 2, "stale: the cached page at once")
            await cache.settle(.following)
            #expect(await cache.cachedPosts(.following).map(\.text).first == "Bench #chest")
            #expect(transport.count(feedPath) == 2)
            try await cache.refresh(.following)
            #expect(transport.count(feedPath) == 3)
        }
    }

    @Test("offline, feeds and profiles come from disk; profiles are fetched again after a day")
    func offline() async throws {
        try await LiveServer.run { url, _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("cache.sqlite").path
            let tokens = MemoryTokenStore()
            let transport = CountingTransport()
            let client = SpotterClient(baseURL: url, tokens: tokens, transport: transport)
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            _ = try await client.createPost(CreatePostRequest(kind: .note, text: "Intervals #run"))
            let clock = TestClock()
            let online = try SpotterCache(path: path, client: client, now: clock.now)
            _ = try await online.firstPage(.following)
            _ = try await online.profile("ana")
            _ = try await online.profile("ana")
            #expect(transport.count("/api/v1/users/ana") == 1)
            clock.advance(by: 24 * 3600 + 1)
            _ = try await online.profile("ana")
            #expect(transport.count("/api/v1/users/ana") == 2)
            // A later launch, a day later, with no network, reads what was kept, stale or not.
            clock.advance(by: 24 * 3600 + 1)
            let nowhere = SpotterClient(
                baseURL: URL(string: "http://127.0.0.1:9")!, tokens: tokens, retry: .none)
            let offline = try SpotterCache(path: path, client: nowhere, now: clock.now)
            #expect(try await offline.firstPage(.following).map(\.text) == ["Intervals #run"])
            #expect(try await offline.profile("ana").username == "ana")
        }
    }

    @Test("posts kept over 30 days are cleaned up, except the user's own")
    func cleanUp() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let ana = SpotterClient(baseURL: url)
            let me = try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            _ = try await ana.createPost(CreatePostRequest(kind: .note, text: "Mine #run"))
            _ = try await bea.createPost(CreatePostRequest(kind: .note, text: "Hers #run"))
            let clock = TestClock()
            let cache = try SpotterCache(path: nil, client: ana, me: me.id, now: clock.now)
            #expect(try await cache.firstPage(.global).count == 2)
            clock.advance(by: 29 * 24 * 3600)
            #expect(try await cache.cleanUp() == 0)
            clock.advance(by: 2 * 24 * 3600)
            #expect(try await cache.cleanUp() == 1)
            #expect(try await cache.storedPosts(.global, limit: 10).map(\.text) == ["Mine #run"])
        }
    }
}
