import Foundation
import SpotterKit
import SpotterModels
import SpotterNostr
import Testing

/// The compose flow's Nostr branch: a public workout, with the device's key linked, is signed here as a 1301
/// and goes to the relays instead of REST; anything else does not.
@Suite("Nostr compose")
@MainActor
struct NostrComposeTests {
    /// A client whose server is nowhere: a REST create through it would fail, so a post that lands went by Nostr.
    static let nowhere = SpotterClient(baseURL: URL(string: "http://127.0.0.1:9")!, retry: .none)

    static func publishing(relay: LocalRelayProcess, linked: Bool) async throws -> NostrWorkoutPublishing {
        let publisher = NostrPublisher(
            database: try AppDatabase(path: nil), spotterRelay: relay.url, timeout: .seconds(5))
        let signer = NostrSigner(store: MemoryNostrKeyStore(try NostrSecretKey.generate()))
        if linked { try await publisher.setLinkedKey(try await signer.publicKey) }
        return NostrWorkoutPublishing(signer: signer, publisher: publisher)
    }

    static func compose(_ nostr: NostrWorkoutPublishing, visibility: Visibility = .public) -> ComposeWorkoutViewModel {
        let model = ComposeWorkoutViewModel(client: nowhere, nostr: nostr)
        model.title = "Leg day"
        model.text = "Heavy one #legs"
        model.visibility = visibility
        model.addExercise("Back Squat")
        model.addSet(to: 0, weightKg: 100, reps: 5)
        return model
    }

    @Test("a public workout with a linked key is signed as a 1301 with the client tag and reaches the relay")
    func signsPublicWorkout() async throws {
        // Given Spotter's relay (played by LocalRelay) and a device whose key is linked
        let relay = try await LocalRelayProcess()
        try await relay.start()
        defer { relay.stop() }
        let nostr = try await Self.publishing(relay: relay, linked: true)
        let model = Self.compose(nostr)

        // When the person publishes
        let published = await model.publish()

        // Then it went out as a signed event the relay holds, not through REST
        #expect(published && model.errors.isEmpty)
        let queued = try #require(model.nostrPublication)
        #expect(queued.publications.map(\.state) == [.delivered])
        let event = queued.event
        #expect(event.kind == .workoutRecord && event.isValid)
        #expect(event.pubkey == (try await nostr.signer.publicKey))
        #expect(event.tags.contains(["client", "Spotter"]))
        #expect(event.tagValues("t") == ["legs"])
        #expect(relay.offered[event.id.rawValue] == 1)
        // And NIP-101e reads it back as the workout composed
        let read = try NIP101e.workoutRecord(from: event)
        #expect(read.workout.title == "Leg day")
        #expect(read.workout.exercises.first?.sets?.first?.reps == 5)
    }

    @Test("with the client tag switched off, the event does not name Spotter")
    func clientTagOff() async throws {
        let relay = try await LocalRelayProcess()
        try await relay.start()
        defer { relay.stop() }
        let nostr = try await Self.publishing(relay: relay, linked: true)
        try await nostr.publisher.setIncludesClientTag(false)
        let model = Self.compose(nostr)

        #expect(await model.publish())

        let event = try #require(model.nostrPublication?.event)
        #expect(event.tagValues("client").isEmpty)
    }

    @Test("followers-only workouts and unlinked keys go through REST, never to a relay")
    func otherwiseREST() async throws {
        let relay = try await LocalRelayProcess()
        try await relay.start()
        defer { relay.stop() }
        for (linked, visibility) in [(true, Visibility.followers), (true, .private), (false, .public)] {
            let nostr = try await Self.publishing(relay: relay, linked: linked)
            let model = Self.compose(nostr, visibility: visibility)

            // REST has no server here, so the publish fails, and nothing was signed or queued
            #expect(await !model.publish())
            #expect(model.nostrPublication == nil)
            #expect(try await nostr.publisher.all.isEmpty)
        }
        #expect(relay.offered.isEmpty)
    }
}
