import Foundation
import SpotterModels
import SpotterNostr

/// The durable way out for signed events: each event waits in the client database (`AppDatabase`) once per
/// relay — Spotter's own (`<server>/relay`) and each external relay the person added — and each relay is
/// tried on its own, with the outbox's backoff, until it answers `OK true` (or `duplicate:`). A refusal for
/// good (`invalid:`, `blocked:`, `restricted:`, `pow:`) stops the tries for that relay and is kept with the
/// relay's words for the app to show; anything else (no network, a relay down, a timeout, `rate-limited:`)
/// waits, however long it takes. The queue survives restarts: a workout logged offline reaches every relay
/// once when the network returns. Call `drain()` on foreground and periodically, `drain(ignoringBackoff:
/// true)` when the network comes back (`SpotterSession` does both).
///
/// ```swift
/// let publisher = NostrPublisher(database: session.database, server: serverURL)
/// try await publisher.addRelay(NostrRelayURL("wss://relay.example")!)
/// try await publisher.enqueue(signedEvent)
/// for outcome in await publisher.drain() { … }
/// let waiting = try await publisher.pending          // each event with where it stands on every relay
/// ```
public actor NostrPublisher {
    public nonisolated let database: AppDatabase
    /// Spotter's relay for the server this device talks to: every event goes there.
    public nonisolated let spotterRelay: NostrRelayURL
    public let retry: RetryPolicy
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let connect: @Sendable (NostrRelayURL) -> NostrRelayConnection
    private var draining = false

    /// - Parameters:
    ///   - server: the Spotter server; its relay is `/relay` under it.
    ///   - retry: when a relay that did not take an event is tried again (the outbox's schedule by default).
    ///   - now: the clock the retry times are kept by; tests pass one they move.
    ///   - random: the jitter source, in 0...1.
    ///   - timeout: how long a relay has to connect and answer each event.
    public init(
        database: AppDatabase, server: URL, retry: RetryPolicy = .outbox, timeout: Duration = .seconds(10),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.init(
            database: database, spotterRelay: .spotter(server: server), retry: retry, timeout: timeout, now: now,
            random: random)
    }

    /// A publisher whose own relay is `spotterRelay` (a relay that is not a Spotter server's, in tests).
    public init(
        database: AppDatabase, spotterRelay: NostrRelayURL, retry: RetryPolicy = .outbox,
        timeout: Duration = .seconds(10), now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.database = database
        self.spotterRelay = spotterRelay
        self.retry = retry
        self.now = now
        self.random = random
        self.connect = { NostrRelayConnection(url: $0, timeout: timeout) }
    }

    // MARK: Relays and settings

    /// Every relay an event goes to: Spotter's first, then the ones the person added.
    public var relays: [NostrRelayURL] {
        get async throws { [spotterRelay] + (try await database.nostrRelays()).filter { $0 != spotterRelay } }
    }

    /// Adds an external relay (kept across launches); events queued from now on go there too. False when it
    /// was there already.
    @discardableResult
    public func addRelay(_ relay: NostrRelayURL) async throws -> Bool {
        guard relay != spotterRelay else { return false }
        return try await database.addNostrRelay(relay, at: now())
    }

    /// Removes an external relay; what still waits for it is not sent there. Spotter's own relay stays.
    @discardableResult
    public func removeRelay(_ relay: NostrRelayURL) async throws -> Bool {
        try await database.removeNostrRelay(relay)
    }

    /// Whether signed workouts carry NIP-89's `["client", "Spotter"]` tag (on unless the person switched it off).
    public var includesClientTag: Bool {
        get async throws { try await database.nostrSetting("client_tag") != "off" }
    }

    public func setIncludesClientTag(_ on: Bool) async throws {
        try await database.setNostrSetting("client_tag", on ? nil : "off")
    }

    /// The key linked to the account signed in on this device, as the last link (or check) recorded it: public
    /// workouts are published as signed events only when the device's key is this one.
    public var linkedKey: NostrPublicKey? {
        get async throws { try await database.nostrSetting("linked_key").flatMap(NostrPublicKey.init(rawValue:)) }
    }

    /// Records (or, nil, forgets) the key linked to the account signed in here; forget it on sign-out and unlink.
    public func setLinkedKey(_ key: NostrPublicKey?) async throws {
        try await database.setNostrSetting("linked_key", key?.rawValue)
    }

    // MARK: The queue

    /// Queues a signed event for every relay (committed before this returns); `post` is the workout it
    /// carries, shown as waiting until it is out. Queuing an event again adds nothing.
    public func enqueue(_ event: NostrEvent, post: CreatePostRequest? = nil) async throws {
        try await database.enqueueNostr(event, post: post, relays: try await relays, at: now())
    }

    /// Events some relay still waits for, oldest first, each with where it stands on every relay.
    public var pending: [NostrQueuedEvent] {
        get async throws { try await database.nostrQueue(pendingOnly: true) }
    }

    /// Every event queued on this device, delivered and refused ones too.
    public var all: [NostrQueuedEvent] {
        get async throws { try await database.nostrQueue(pendingOnly: false) }
    }

    /// Sends what is due, each relay on its own connection and at the same time as the others; each relay gets
    /// its events oldest first. A relay that cannot be reached waits for its next try; the others go on.
    ///
    /// - Parameter ignoringBackoff: send what still waits out its backoff too: the network just came back.
    @discardableResult
    public func drain(ignoringBackoff: Bool = false) async -> [NostrPublicationOutcome] {
        guard !draining else { return [] }
        draining = true
        defer { draining = false }
        guard let queue = try? await pending else { return [] }
        let current = now()
        var byRelay: [NostrRelayURL: [(NostrEvent, NostrPublication)]] = [:]
        for queued in queue {
            for publication in queued.publications where publication.state == .pending {
                guard ignoringBackoff || (publication.nextAttempt ?? .distantPast) <= current else { continue }
                byRelay[publication.relay, default: []].append((queued.event, publication))
            }
        }
        let work = byRelay
        return await withTaskGroup(of: [NostrPublicationOutcome].self) { group in
            for (relay, items) in work {
                group.addTask { await self.send(items, to: relay) }
            }
            var outcomes: [NostrPublicationOutcome] = []
            for await some in group { outcomes += some }
            return outcomes
        }
    }

    /// Drains every `interval` until the task is cancelled; each drain sends only what is due.
    public func runPeriodically(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            _ = await drain()
            try? await Task.sleep(for: interval)
        }
    }

    /// One relay's due events over one connection. Once the relay cannot be reached (or stops answering), the
    /// rest wait for their next try without being sent.
    private func send(
        _ items: [(NostrEvent, NostrPublication)], to relay: NostrRelayURL
    ) async -> [NostrPublicationOutcome] {
        let connection = connect(relay)
        var outcomes: [NostrPublicationOutcome] = []
        var lost: NostrRelayError?
        for (event, publication) in items {
            let answer: Result<NostrPublishResult, NostrRelayError>
            if let lost {
                answer = .failure(lost)
            } else {
                do {
                    answer = .success(try await connection.publish(event))
                } catch {
                    let failure = error as? NostrRelayError ?? .unreachable("\(error)")
                    lost = failure
                    answer = .failure(failure)
                }
            }
            outcomes.append(await record(answer, for: publication))
        }
        await connection.close()
        return outcomes
    }

    private func record(
        _ answer: Result<NostrPublishResult, NostrRelayError>, for publication: NostrPublication
    ) async -> NostrPublicationOutcome {
        var row = publication
        let outcome: NostrPublicationOutcome
        switch NostrPublicationSchedule.step(
            after: answer, attempts: publication.attempts + 1, now: now(), policy: retry, random: random())
        {
        case .delivered(let message):
            row.state = .delivered
            row.message = message
            row.nextAttempt = nil
            outcome = .delivered(row)
        case .refused(let message):
            row.state = .refused
            row.attempts += 1
            row.message = message
            row.nextAttempt = nil
            outcome = .refused(row)
        case .retry(let at, let reason):
            row.attempts += 1
            row.message = reason
            row.nextAttempt = at
            outcome = .waiting(row)
        }
        try? await database.recordNostr(row)
        return outcome
    }
}
