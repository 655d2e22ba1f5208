import Foundation
import SpotterKit
import SpotterNostr
import Testing

/// SpotterKit's relay client against rust-nostr's `LocalRelay`: publish and wait for `OK`, read back with `REQ`.
@Suite("Nostr relay connection")
struct NostrRelayConnectionTests {
    @Test("an event is accepted with OK true, sent again it is a delivered duplicate, and REQ returns it once")
    func publishes() async throws {
        // Given a running relay and a signed workout record
        let relay = try await LocalRelayProcess()
        try await relay.start()
        defer { relay.stop() }
        let key = try NostrSecretKey.generate()
        let event = try NostrEvent.sign(kind: .workoutRecord, tags: [["d", "w1"]], content: "Leg day", with: key)
        let connection = NostrRelayConnection(url: relay.url, timeout: .seconds(5))

        // When it is published, twice
        let first = try await connection.publish(event)
        let second = try await connection.publish(event)

        // Then the relay took it, and the second answer counts as delivered
        #expect(first == NostrPublishResult(accepted: true, message: ""))
        #expect(second.isDelivered)
        #expect(second.prefix == "duplicate")
        // And a REQ by author returns it once, as signed
        let stored = try await connection.query([NostrFilter(authors: [key.publicKey])])
        #expect(stored == [event])
        await connection.close()
    }

    @Test("a relay's refusal comes back with its message, and blocked: is a refusal for good")
    func refusal() async throws {
        let relay = try await LocalRelayProcess(refuse: "not on this relay")
        try await relay.start()
        defer { relay.stop() }
        let event = try NostrEvent.sign(kind: .textNote, content: "hi", with: try NostrSecretKey.generate())
        let connection = NostrRelayConnection(url: relay.url, timeout: .seconds(5))

        let result = try await connection.publish(event)

        #expect(!result.accepted)
        #expect(result.message.hasPrefix("blocked:") && result.message.contains("not on this relay"))
        #expect(result.isPermanentRefusal)
        await connection.close()
    }

    @Test("a relay that is down is unreachable, quickly, not a hang")
    func unreachable() async throws {
        // Given a relay's port with nothing listening
        let relay = try await LocalRelayProcess()
        let event = try NostrEvent.sign(kind: .textNote, content: "hi", with: try NostrSecretKey.generate())
        let connection = NostrRelayConnection(url: relay.url, timeout: .seconds(5))

        // When an event is published there
        let started = ContinuousClock.now
        await #expect {
            _ = try await connection.publish(event)
        } throws: { error in
            guard case .unreachable = error as? NostrRelayError else { return false }
            return true
        }
        // Then it failed at connecting, well before the timeout
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("which answers are refusals for good and which may pass later")
    func prefixes() {
        let forGood = ["invalid: bad signature", "blocked: spam", "restricted: not linked", "pow: difficulty 20"]
        let forNow = ["rate-limited: slow down", "error: database busy", "auth-required: sign in", "", "try later"]
        for message in forGood {
            #expect(NostrPublishResult(accepted: false, message: message).isPermanentRefusal, "\(message)")
        }
        for message in forNow {
            let result = NostrPublishResult(accepted: false, message: message)
            #expect(!result.isPermanentRefusal && !result.isDelivered, "\(message)")
        }
        #expect(NostrPublishResult(accepted: false, message: "duplicate: have it").isDelivered)
    }
}
