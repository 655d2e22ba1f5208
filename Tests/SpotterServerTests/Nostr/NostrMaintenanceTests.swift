import Foundation
import Logging
import SpotterCore
import SpotterNostr
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// The hourly sweep forgets Nostr one-time values past their minute, so the tables of challenges and used
/// sign-in events stay small.
@Suite("Nostr one-time values are swept")
struct NostrMaintenanceTests {
    @Test("a used sign-in event is forgotten once it has expired, and not before", arguments: StorageBackend.available)
    func sweep(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given a sign-in event used now, good for a minute
            let clock = ManualClock(Date())
            let used = try NostrEvent.sign(kind: .httpAuthentication, content: "", with: try .generate())
            #expect(try await storage.nostr.markAuthorizationUsed(used.id, expiresAt: clock.now + 61))
            let maintenance = MaintenanceService(
                storage: storage, clock: clock, idempotencyRetention: 3600, interval: .seconds(3600),
                logger: Logger(label: "test"))
            // When the sweep runs within the minute, the event is still known as used
            await maintenance.sweep()
            #expect(try await storage.nostr.markAuthorizationUsed(used.id, expiresAt: clock.now + 61) == false)
            // And when it runs after, the event is forgotten (its age refuses it anyway)
            clock.advance(by: 62)
            await maintenance.sweep()
            #expect(try await storage.nostr.markAuthorizationUsed(used.id, expiresAt: clock.now + 61))
        }
    }
}
