import Foundation
import SpotterCore
import SpotterKit
import SpotterModels
import SpotterNostr
import SpotterServer
import SpotterTestSupport
import Testing

/// The whole path with nothing played by a stand-in: a workout composed on a device whose key is linked is
/// signed there, waits in the client database while Spotter's server and an external relay (rust-nostr's
/// LocalRelay) are both down, and reaches each exactly once when they are back; Spotter's `/relay` turns it
/// into the post a follower sees.
@Suite("Nostr publishing to Spotter's relay")
struct NostrSpotterRelayTests {
    /// Composes and publishes a public workout as the app's screen does; the signed event it queued.
    @MainActor
    static func logWorkout(client: SpotterClient, nostr: NostrWorkoutPublishing) async -> NostrEvent? {
        let model = ComposeWorkoutViewModel(client: client, nostr: nostr)
        model.title = "Offline legs"
        model.visibility = .public
        model.addExercise("Back Squat")
        model.addSet(to: 0, weightKg: 120, reps: 3)
        guard await model.publish() else { return nil }
        return model.nostrPublication?.event
    }

    @Test("a workout logged while Spotter and an external relay are down reaches each once and becomes a post")
    func offlineToSpotterAndExternal() async throws {
        let port = try await LiveServer.freePort()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        try await StorageBackend.sqlite.withIsolatedStorage { storage in
            let configure: @Sendable (inout AppConfiguration) -> Void = { $0.publicURL = base.absoluteString }
            // Given Ana, whose phone holds a linked key, and Ben, who follows her
            var server = try await LiveServer.start(storage: storage, port: port, configure: configure)
            let phone = SpotterClient(baseURL: base)
            _ = try await phone.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let ben = SpotterClient(baseURL: base)
            _ = try await ben.signUp(email: "ben@example.com", username: "ben", password: "correct horse battery")
            _ = try await ben.follow("ana")
            let signer = NostrSigner(store: MemoryNostrKeyStore(try NostrSecretKey.generate()))
            let key = try await phone.linkNostrKey(signer: signer)
            let publisher = NostrPublisher(
                database: try AppDatabase(path: nil), server: base, timeout: .seconds(5), random: { 1 })
            try await publisher.setLinkedKey(try await signer.publicKey)
            let external = try await LocalRelayProcess()
            defer { external.stop() }
            try await publisher.addRelay(external.url)

            // When both are down and she logs a workout
            server.cancel()
            _ = await server.result
            let event = try #require(
                await Self.logWorkout(
                    client: phone, nostr: NostrWorkoutPublishing(signer: signer, publisher: publisher)))
            #expect(event.pubkey.rawValue == key.pubkey && event.isValid)
            #expect(try await publisher.pending.count == 1)

            // And both come back, and the network's return drains the queue
            server = try await LiveServer.start(storage: storage, port: port, configure: configure)
            defer { server.cancel() }
            try await external.start()
            let back = await publisher.drain(ignoringBackoff: true)

            // Then each relay took it, once
            #expect(back.count == 2)
            #expect(back.allSatisfy { if case .delivered = $0 { true } else { false } })
            #expect(try await publisher.pending.isEmpty)
            #expect(await publisher.drain(ignoringBackoff: true).isEmpty)
            #expect(external.offered[event.id.rawValue] == 1)
            let spotterRelay = NostrRelayConnection(url: .spotter(server: base), timeout: .seconds(5))
            #expect(try await spotterRelay.query([NostrFilter(ids: [event.id])]).map(\.id) == [event.id])
            await spotterRelay.close()
            // And Ben's Following feed has it as Ana's workout, once
            let feed = try await ben.feed(.following, limit: 20)
            #expect(feed.items.count == 1)
            #expect(feed.items.first?.author.username == "ana")
            #expect(feed.items.first?.workout?.title == "Offline legs")
            #expect(feed.items.first?.workout?.exercises.first?.sets?.first?.weightKg == 120)
        }
    }
}
