import Foundation
import Logging
import SpotterModels
import SpotterNostr

/// The relay's rules: which events it takes (write policy, limits, signatures), what becomes of them in Spotter,
/// and who may read what. `/relay` asks it for every message; nothing here knows about sockets.
///
/// An event is acknowledged (`OK true`) only after its unit of work commits: the event, and the post or
/// template it became, exist together or not at all.
public struct NostrRelayService: Sendable {
    /// What an event from a linked key becomes in Spotter (`NostrIngestService.handle`), run inside the event's
    /// unit of work. Its failure (an event Spotter can't read as a workout) keeps the event on the relay and
    /// makes nothing in Spotter.
    public typealias Ingest = @Sendable (NostrEvent, AccountRecord) async throws -> Void

    let storage: any SpotterStorage
    let clock: any WallClock
    public let policy: NostrWritePolicy
    public let limits: NostrRelayLimits
    let events: (any EventBus)?
    let ingest: Ingest?
    let logger: Logger

    public init(
        storage: any SpotterStorage, clock: any WallClock, policy: NostrWritePolicy = .linked,
        limits: NostrRelayLimits = NostrRelayLimits(), events: (any EventBus)?, ingest: Ingest? = nil,
        logger: Logger = Logger(label: "spotter.relay")
    ) {
        self.storage = storage
        self.clock = clock
        self.policy = policy
        self.limits = limits
        self.events = events
        self.ingest = ingest
        self.logger = logger
    }

    var store: any NostrStore { storage.nostr }

    /// An inline event in a domain event stays below NOTIFY's 8000 bytes even with every character escaped.
    static let inlineLimit = 3500

    // MARK: Writing

    /// Takes an `EVENT`: the `OK` answer's acceptance and message.
    public func publish(_ event: NostrEvent) async -> (accepted: Bool, message: String) {
        if let refusal = NostrEventRules.refusal(of: event, limits: limits, now: clock.now) { return (false, refusal) }
        if event.kind == .clientAuthentication || event.kind == .httpAuthentication {
            // Broadcast, an unused sign-in event could be taken by another subscriber and used first.
            return (false, "invalid: authorization events are not published; send AUTH instead")
        }
        do {
            let author = try await authorAccount(of: event.pubkey)
            if let author, author.suspendedAt != nil { return (false, "blocked: this key's account is suspended") }
            if policy == .linked, author == nil {
                return (false, "restricted: only keys linked to a Spotter account may publish here")
            }
            if event.kind.isEphemeral {
                await announce(event)
                return (true, "")
            }
            let outcome = try await storage.write { () async throws -> NostrSaveOutcome in
                let outcome = try await store.save(event, author: author?.id, receivedAt: clock.now)
                guard case .stored = outcome else { return outcome }
                if event.kind == .deletion { _ = try await store.applyDeletion(event) }
                if let author, let ingest { await makeSpotterObjects(event, author: author, ingest: ingest) }
                return outcome
            }
            switch outcome {
            case .stored:
                await announce(event)
                return (true, "")
            case .duplicate: return (true, "duplicate: already have this event")
            case .superseded: return (true, "duplicate: a newer version of this event is stored")
            case .deleted: return (false, "blocked: its author deleted this event")
            }
        } catch {
            logger.error("storing a Nostr event failed", metadata: ["event": "\(event.id)", "error": "\(error)"])
            return (false, "error: could not store the event; try again")
        }
    }

    /// Whether a client's message may be handled at the same time as the EVENTs sent next to it, each in its own
    /// unit of work (so they share a batch of the writer and a sync of the log): any EVENT but a deletion,
    /// which must find the events sent before it stored. Each answers with its own `OK` (NIP-01 names the
    /// event in it, so the order does not matter), and the store keeps the newest of two versions of a
    /// replaceable event by its `created_at` whichever is saved first. REQ, COUNT, CLOSE and AUTH wait for
    /// what came before them.
    public static func mayRunBesideOthers(_ message: NostrClientMessage) -> Bool {
        guard case .event(let event) = message else { return false }
        return event.kind != .deletion
    }

    /// Runs the ingest in a savepoint: what Spotter can't read stays a Nostr event and nothing more.
    private func makeSpotterObjects(_ event: NostrEvent, author: AccountRecord, ingest: Ingest) async {
        do {
            try await storage.write { try await ingest(event, author) }
        } catch {
            logger.debug(
                "a Nostr event made nothing in Spotter",
                metadata: ["event": "\(event.id)", "kind": "\(event.kind.rawValue)", "reason": "\(error)"])
        }
    }

    private func announce(_ event: NostrEvent) async {
        let json = event.json
        await events?.publish(.nostrEventStored(event.id, inline: json.utf8.count <= Self.inlineLimit ? json : nil))
    }

    private func authorAccount(of key: NostrPublicKey) async throws -> AccountRecord? {
        guard let user = try await store.owner(of: key) else { return nil }
        return try await storage.accounts.find(id: user)
    }

    // MARK: Reading

    /// The stored events a `REQ` answers with, newest first, as `reader` may see them.
    public func query(_ filters: [NostrFilter], reader: NostrReader) async throws -> [NostrEvent] {
        try await store.query(filters, reader: reader, limitCap: limits.maxLimit)
    }

    public func count(_ filters: [NostrFilter], reader: NostrReader) async throws -> Int {
        try await store.count(filters, reader: reader)
    }

    /// The event a domain event announced: inline, or read back from the store (another node's event too
    /// large to travel inline), with its author's account for the live audience check; `nil` when it is
    /// gone or `wanted` (does any subscription match it?) says no, before the author is read.
    public func announced(
        _ id: NostrEventID, inline: String?, if wanted: (NostrEvent) -> Bool = { _ in true }
    ) async throws -> LiveNostrEvent? {
        if let inline, let event = try? NostrJSON.decoder.decode(NostrEvent.self, from: Data(inline.utf8)) {
            guard wanted(event) else { return nil }
            return LiveNostrEvent(event: event, author: try await authorAccount(of: event.pubkey))
        }
        guard let stored = try await store.find(id), !stored.hidden, wanted(stored.event) else { return nil }
        var author: AccountRecord?
        if let user = stored.author { author = try await storage.accounts.find(id: user) }
        return LiveNostrEvent(event: stored.event, author: author)
    }

    /// The people who block or are blocked by `reader`: a live event of theirs doesn't reach the reader.
    public func blockedEitherWay(with reader: UserID) async throws -> Set<UserID> {
        try await storage.graph.blockedEitherWay(with: reader)
    }

    // MARK: NIP-42

    /// Checks an `AUTH` event against this connection's challenge: the reader it makes (the account of the key,
    /// or nobody known for a key linked to none), or the `OK false` message.
    public func authenticate(
        _ event: NostrEvent, challenge: String, relayURL: String
    ) async -> Result<
        NostrReader, NostrAuthRefusal
    > {
        do {
            _ = try NIP42.validate(event: event, relayURL: relayURL, challenge: challenge, now: clock.now)
        } catch {
            return .failure(NostrAuthRefusal(message: "invalid: \(error)"))
        }
        do {
            let author = try await authorAccount(of: event.pubkey)
            if let author, author.suspendedAt != nil {
                return .failure(NostrAuthRefusal(message: "blocked: this key's account is suspended"))
            }
            return .success(NostrReader(user: author?.id))
        } catch {
            return .failure(NostrAuthRefusal(message: "error: could not check the key; try again"))
        }
    }
}

public struct NostrAuthRefusal: Error, Sendable, Equatable {
    public var message: String
}

/// A live event and its author's account (`nil` for a key linked to none).
public struct LiveNostrEvent: Sendable {
    public var event: NostrEvent
    public var author: AccountRecord?

    /// Whether `reader` may get it live: the rule `NostrStore.query` applies in SQL (`PersonPolicy`'s
    /// `relayEvents`), asked once per event and reader.
    public func isVisible(to reader: UserID?, blockedEitherWay: Bool) -> Bool {
        guard let author else { return true }
        return PersonPolicy.allows(
            .relayEvents,
            .init(
                signedIn: reader != nil, isSelf: reader == author.id, suspended: author.suspendedAt != nil,
                blockedEitherWay: blockedEitherWay, privacy: author.profile.privacy))
    }
}
