import Foundation
import SpotterCore
import SpotterKit
import SpotterModels
import Testing

@Suite("Analytics tracker")
struct AnalyticsTrackerTests {
    @Test("events go out in batches, survive a restart, and a batch whose answer was lost counts once")
    func batches() async throws {
        try await LiveServer.runWithStorage { url, clock, storage in
            let tokens = MemoryTokenStore()
            let transport = CountingTransport()
            let client = SpotterClient(baseURL: url, tokens: tokens, transport: transport)
            try await client.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            @Sendable func stored() async throws -> Int {
                try await AnalyticsService(storage: storage, clock: clock).report(days: 1).topEvents.reduce(0) {
                    $0 + $1.count
                }
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("analytics-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("analytics.sqlite").path

            let tracker = try AnalyticsTracker(path: path, client: client, flushAt: 3)
            await tracker.track("app.open")
            await tracker.track("screen.feed", properties: ["tab": "following"])
            #expect(await tracker.waiting == 2)
            #expect(transport.count("/api/v1/analytics/events") == 0)
            await tracker.track("kudos_given")
            #expect(await tracker.waiting == 0)
            #expect(transport.count("/api/v1/analytics/events") == 1)
            #expect(try await stored() == 3)

            // Offline: kept on disk, and sent by the next launch.
            let offline = SpotterClient(baseURL: URL(string: "http://127.0.0.1:9")!, tokens: tokens, retry: .none)
            let away = try AnalyticsTracker(path: path, client: offline)
            await away.track("app.open")
            await away.flush()
            #expect(await away.waiting == 1)
            let relaunched = try AnalyticsTracker(path: path, client: client)
            #expect(await relaunched.waiting == 1)
            await relaunched.flush()
            #expect(try await stored() == 4)

            // The server stores a batch but the answer is lost: the resend carries the same key, counted once.
            let lossy = SpotterClient(baseURL: url, tokens: tokens, transport: AnswerLost(), retry: .none)
            let unlucky = try AnalyticsTracker(path: path, client: lossy)
            await unlucky.track("app.background")
            await unlucky.flush()
            #expect(try await stored() == 5)
            await relaunched.flush()
            #expect(await relaunched.waiting == 0)
            #expect(try await stored() == 5)
        }
    }
}
