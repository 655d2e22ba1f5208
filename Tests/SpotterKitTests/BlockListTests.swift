import Foundation
import SpotterKit
import SpotterModels
import Testing

/// The client's lists of whom one blocks and mutes, against the real server.
@Suite("SpotterClient block and mute lists")
struct BlockListTests {
    static let password = "correct horse battery"

    @Test("blocks and mutes are listed for their owner, newest first, and undoing one takes it off")
    func lists() async throws {
        try await LiveServer.runWithStorage(configure: { _ in }) { url, _, _ in
            // Given Ana, Bea and Cai
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            for name in ["bea", "cai"] {
                try await SpotterClient(baseURL: url).signUp(
                    email: "\(name)@example.com", username: name, password: Self.password)
            }
            // When Ana blocks Bea and mutes Cai
            _ = try await ana.setBlocked(true, "bea")
            _ = try await ana.setMuted(true, "cai")
            // Then each list holds the one person
            #expect(try await ana.blocks().items.map(\.username) == ["bea"])
            #expect(try await ana.mutes().items.map(\.username) == ["cai"])
            // And undoing them empties the lists
            _ = try await ana.setBlocked(false, "bea")
            _ = try await ana.setMuted(false, "cai")
            #expect(try await ana.blocks().items.isEmpty)
            #expect(try await ana.mutes().items.isEmpty)
        }
    }
}
