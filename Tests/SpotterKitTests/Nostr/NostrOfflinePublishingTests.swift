import Foundation
import SpotterCore
import SpotterKit
import SpotterNostr
import Testing

/// The publication queue against two real relays (rust-nostr's `LocalRelay`, one playing Spotter's own):
/// offline events wait in the client database, survive a restart, and reach each relay exactly once when it
/// comes back; a refusal for good stops the tries for that relay.
@Suite("Nostr offline publishing")
struct NostrOfflinePublishingTests {
    static func databasePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("nostr-queue-\(UUID().uuidString).sqlite").path
    }

    static func publisher(
        _ path: String, spotter: LocalRelayProcess, clock: ManualClock
    ) throws -> NostrPublisher {
        NostrPublisher(
            database: try AppDatabase(path: path), spotterRelay: spotter.url, timeout: .seconds(5),
            now: { clock.now }, random: { 1 })
    }

    static func count(_ event: NostrEvent, on relay: LocalRelayProcess) async throws -> Int {
        let connection = NostrRelayConnection(url: relay.url, timeout: .seconds(5))
        defer { Task { await connection.close() } }
        return try await connection.query([NostrFilter(ids: [event.id])]).count
    }

    @Test("a workout queued while both relays are down reaches each exactly once when they are back, across a restart")
    func offlineThenBack() async throws {
        // Given Spotter's relay and an external one, both up once and now down
        let spotter = try await LocalRelayProcess()
        let external = try await LocalRelayProcess()
        try await spotter.start()
        try await external.start()
        spotter.stop()
        external.stop()
        defer {
            spotter.stop()
            external.stop()
        }
        let path = Self.databasePath()
        let clock = ManualClock(Date())
        let first = try Self.publisher(path, spotter: spotter, clock: clock)
        try await first.addRelay(external.url)
        let key = try NostrSecretKey.generate()
        let workout = try NostrEvent.sign(
            kind: .workoutRecord, tags: [["d", "leg-day"], ["client", "Spotter"]], content: "Leg day", with: key)

        // When the workout is queued and drained while both are down, then again at once
        try await first.enqueue(workout)
        let offline = await first.drain()
        let tooSoon = await first.drain()

        // Then both rows wait, saying the relay could not be reached, and nothing is tried again before its time
        #expect(offline.count == 2)
        for outcome in offline {
            guard case .waiting(let row) = outcome else {
                Issue.record("expected waiting, got \(outcome)")
                continue
            }
            #expect(row.attempts == 1 && row.message?.contains("cannot be reached") == true)
            #expect(try #require(row.nextAttempt) > clock.now)
        }
        #expect(tooSoon.isEmpty)

        // When the app restarts (a new database connection on the same file) and both relays come back
        let second = try Self.publisher(path, spotter: spotter, clock: clock)
        let waiting = try await second.pending
        #expect(waiting.map(\.event) == [workout])
        #expect(Set(waiting[0].publications.map(\.relay)) == [spotter.url, external.url])
        try await spotter.start()
        try await external.start()
        // And the network's return drains without waiting out the backoff
        let back = await second.drain(ignoringBackoff: true)

        // Then each relay answered OK, and each was offered the event exactly once and stores it once
        #expect(back.count == 2)
        #expect(back.allSatisfy { if case .delivered = $0 { true } else { false } })
        #expect(spotter.offered[workout.id.rawValue] == 1)
        #expect(external.offered[workout.id.rawValue] == 1)
        #expect(try await Self.count(workout, on: spotter) == 1)
        #expect(try await Self.count(workout, on: external) == 1)
        // And nothing waits any more: later drains, forced or a day later, send nothing again
        #expect(try await second.pending.isEmpty)
        #expect(await second.drain(ignoringBackoff: true).isEmpty)
        clock.advance(by: 86_400)
        #expect(await second.drain().isEmpty)
        #expect(spotter.offered[workout.id.rawValue] == 1)
        #expect(external.offered[workout.id.rawValue] == 1)
    }

    @Test("each relay is retried on its own: one down does not hold back or repeat the other")
    func relaysOnTheirOwn() async throws {
        // Given Spotter's relay up and an external one down
        let spotter = try await LocalRelayProcess()
        let external = try await LocalRelayProcess()
        try await spotter.start()
        defer {
            spotter.stop()
            external.stop()
        }
        let clock = ManualClock(Date())
        let publisher = try Self.publisher(Self.databasePath(), spotter: spotter, clock: clock)
        try await publisher.addRelay(external.url)
        let event = try NostrEvent.sign(kind: .workoutRecord, content: "Run", with: try NostrSecretKey.generate())

        // When the event is queued and drained
        try await publisher.enqueue(event)
        let outcomes = await publisher.drain()

        // Then Spotter's relay has it and the external one waits
        #expect(outcomes.contains { if case .delivered(let row) = $0 { row.relay == spotter.url } else { false } })
        #expect(outcomes.contains { if case .waiting(let row) = $0 { row.relay == external.url } else { false } })

        // When the external relay is back and its backoff has passed
        try await external.start()
        clock.advance(by: 3600)
        let later = await publisher.drain()

        // Then only the external relay is sent the event, and each relay was offered it once
        #expect(later.count == 1)
        #expect(later.allSatisfy { if case .delivered(let row) = $0 { row.relay == external.url } else { false } })
        #expect(spotter.offered[event.id.rawValue] == 1)
        #expect(external.offered[event.id.rawValue] == 1)
    }

    @Test("a refusal for good stops the tries for that relay and keeps the relay's words")
    func permanentRefusal() async throws {
        // Given Spotter's relay, and an external relay that blocks everything
        let spotter = try await LocalRelayProcess()
        let strict = try await LocalRelayProcess(refuse: "members only")
        try await spotter.start()
        try await strict.start()
        defer {
            spotter.stop()
            strict.stop()
        }
        let clock = ManualClock(Date())
        let publisher = try Self.publisher(Self.databasePath(), spotter: spotter, clock: clock)
        try await publisher.addRelay(strict.url)
        let event = try NostrEvent.sign(kind: .workoutRecord, content: "Run", with: try NostrSecretKey.generate())

        // When the event is queued and drained, then drained again, forced and a day later
        try await publisher.enqueue(event)
        let outcomes = await publisher.drain()
        let forced = await publisher.drain(ignoringBackoff: true)
        clock.advance(by: 86_400)
        let later = await publisher.drain()

        // Then the strict relay's refusal is recorded with its message, and it was offered the event only once
        let refused = outcomes.compactMap { if case .refused(let row) = $0 { row } else { nil } }
        #expect(refused.map(\.relay) == [strict.url])
        #expect(refused.first?.message?.hasPrefix("blocked:") == true)
        #expect(refused.first?.message?.contains("members only") == true)
        #expect(forced.isEmpty && later.isEmpty)
        #expect(strict.offered[event.id.rawValue] == 1)
        // And the event no longer waits; the app can show the refusal
        #expect(try await publisher.pending.isEmpty)
        let kept = try #require(try await publisher.all.first)
        #expect(kept.refusals.map(\.relay) == [strict.url])
    }

    @Test("an event queued twice is one row per relay")
    func queuedOnce() async throws {
        let spotter = try await LocalRelayProcess()
        let clock = ManualClock(Date())
        let publisher = try Self.publisher(Self.databasePath(), spotter: spotter, clock: clock)
        let event = try NostrEvent.sign(kind: .textNote, content: "hi", with: try NostrSecretKey.generate())

        try await publisher.enqueue(event)
        try await publisher.enqueue(event)

        let queued = try await publisher.pending
        #expect(queued.count == 1)
        #expect(queued.first?.publications.count == 1)
    }
}
