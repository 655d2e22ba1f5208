import Foundation
import SpotterKit
import Testing

@Suite("Token stores and the retry policy")
struct TokenStoreTests {
    @Test("the file store keeps tokens readable by their owner only")
    func fileStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotterkit-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("session.json").path
        let store = FileTokenStore(path: path)
        #expect(try await store.load() == nil)
        let tokens = SessionTokens(accessToken: "spa_one", refreshToken: "spr_one")
        try await store.save(tokens)
        try await store.save(tokens)  // replacing keeps the mode
        #expect(try await FileTokenStore(path: path).load() == tokens)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try await store.clear()
        #expect(try await store.load() == nil)
    }

    @Test("backoff doubles up to its cap and takes a random share; Retry-After reads seconds and dates")
    func policy() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(4), maxRetryAfter: .seconds(60))
        #expect((1...5).map { policy.backoff(after: $0, random: 1) } == [1, 2, 4, 4, 4].map { .seconds($0) })
        #expect(policy.backoff(after: 2, random: 0.25) == .milliseconds(500))
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(policy.waitFor429(retryAfter: "7", after: 1, random: 1, now: now) == .seconds(7))
        #expect(policy.waitFor429(retryAfter: "600", after: 1, random: 1, now: now) == nil)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let header = formatter.string(from: now + 30)
        #expect(policy.waitFor429(retryAfter: header, after: 1, random: 1, now: now) == .seconds(30))
        #expect(policy.waitFor429(retryAfter: nil, after: 1, random: 1, now: now) == .seconds(1))
    }
}
