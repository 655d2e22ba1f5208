import Foundation
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// The storage contract for the relay's events: every adapter passes the same cases.
@Suite("Storage contract: Nostr events")
struct NostrStoreContractTests {
    static let start = StorageContractTests.start
    static let cap = 500

    static func sign(
        _ key: NostrSecretKey, kind: NostrKind = .textNote, _ content: String = "", tags: [[String]] = [],
        at createdAt: Int64 = 1_800_000_000
    ) throws -> NostrEvent {
        try NostrEvent.sign(kind: kind, tags: tags, content: content, createdAt: createdAt, with: key)
    }

    /// Events signed until two share a created_at and the first has the higher id: for tie-breaking cases.
    static func tiedPair(
        _ key: NostrSecretKey, kind: NostrKind, tags: [[String]] = [], at time: Int64
    ) throws -> (
        low: NostrEvent, high: NostrEvent
    ) {
        let a = try sign(key, kind: kind, "a", tags: tags, at: time)
        let b = try sign(key, kind: kind, "b", tags: tags, at: time)
        return a.id.rawValue < b.id.rawValue ? (a, b) : (b, a)
    }

    @Test("an event is stored once, found with what the store knows of it", arguments: StorageBackend.available)
    func saveAndDuplicate(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = StorageContractTests.account("ana_events")
            try await storage.accounts.create(ana)
            let note = try Self.sign(try .generate(), "hello", tags: [["t", "running"]])

            #expect(try await storage.nostr.save(note, author: ana.id, receivedAt: Self.start) == .stored(replaced: []))
            #expect(try await storage.nostr.save(note, author: ana.id, receivedAt: Self.start + 1) == .duplicate)

            #expect(
                try await storage.nostr.find(note.id)
                    == StoredNostrEvent(event: note, author: ana.id, hidden: false, receivedAt: Self.start))
            #expect(try await storage.nostr.find(try Self.sign(try .generate(), "never saved").id) == nil)
        }
    }

    @Test("ephemeral events are refused, not stored", arguments: StorageBackend.available)
    func ephemeral(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let event = try Self.sign(try .generate(), kind: 20001, "typing")
            await #expect(throws: NostrStoreError.ephemeral(20001)) {
                try await storage.nostr.save(event, author: nil, receivedAt: Self.start)
            }
            #expect(try await storage.nostr.find(event.id) == nil)
        }
    }

    @Test(
        "replaceable and addressable events keep only the newest version per address; a tie keeps the lowest id",
        arguments: StorageBackend.available)
    func replacement(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let key = try NostrSecretKey.generate()
            let nostr = storage.nostr
            // Replaceable (kind 0): a newer version replaces, an older one is superseded
            let old = try Self.sign(key, kind: .metadata, "old", at: 100)
            let new = try Self.sign(key, kind: .metadata, "new", at: 200)
            #expect(try await nostr.save(old, author: nil, receivedAt: Self.start) == .stored(replaced: []))
            #expect(try await nostr.save(new, author: nil, receivedAt: Self.start) == .stored(replaced: [old.id]))
            #expect(try await nostr.find(old.id) == nil)
            let older = try Self.sign(key, kind: .metadata, "older", at: 150)
            #expect(try await nostr.save(older, author: nil, receivedAt: Self.start) == .superseded)
            #expect(try await nostr.find(older.id) == nil)

            // As new: the lowest id wins, whichever comes first
            let tie = try Self.tiedPair(key, kind: 10002, at: 300)
            #expect(try await nostr.save(tie.high, author: nil, receivedAt: Self.start) == .stored(replaced: []))
            #expect(
                try await nostr.save(tie.low, author: nil, receivedAt: Self.start) == .stored(replaced: [tie.high.id]))
            #expect(try await nostr.save(tie.high, author: nil, receivedAt: Self.start) == .superseded)

            // Addressable (33401): one version per d tag
            let squat = try Self.sign(key, kind: .exerciseTemplate, "squat", tags: [["d", "squat"]], at: 100)
            let bench = try Self.sign(key, kind: .exerciseTemplate, "bench", tags: [["d", "bench"]], at: 100)
            let squat2 = try Self.sign(key, kind: .exerciseTemplate, "squat v2", tags: [["d", "squat"]], at: 101)
            #expect(try await nostr.save(squat, author: nil, receivedAt: Self.start) == .stored(replaced: []))
            #expect(try await nostr.save(bench, author: nil, receivedAt: Self.start) == .stored(replaced: []))
            #expect(try await nostr.save(squat2, author: nil, receivedAt: Self.start) == .stored(replaced: [squat.id]))
            // And another author's same d tag is another address
            let other = try Self.sign(
                try .generate(), kind: .exerciseTemplate, "theirs", tags: [["d", "squat"]], at: 50)
            #expect(try await nostr.save(other, author: nil, receivedAt: Self.start) == .stored(replaced: []))

            let templates = try await nostr.query(
                [NostrFilter(kinds: [.exerciseTemplate])], reader: .anonymous, limitCap: Self.cap)
            #expect(Set(templates) == [squat2, bench, other])
            // The replaced version's tags went with it
            #expect(
                try await nostr.query([NostrFilter(tags: ["d": ["squat"]])], reader: .anonymous, limitCap: Self.cap)
                    == [squat2, other])
        }
    }

    @Test("of many versions of one address saved at once, only the newest is kept", arguments: StorageBackend.available)
    func concurrentReplacement(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let key = try NostrSecretKey.generate()
            let versions = try (0..<12).map {
                try Self.sign(key, kind: .workoutTemplate, "v\($0)", tags: [["d", "push"]], at: 1000 + Int64($0 % 6))
            }
            let outcomes = try await withThrowingTaskGroup(of: NostrSaveOutcome.self) { group in
                for version in versions {
                    group.addTask { try await storage.nostr.save(version, author: nil, receivedAt: Self.start) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winner = versions.filter { $0.createdAt == 1005 }.min { $0.id.rawValue < $1.id.rawValue }!
            #expect(
                try await storage.nostr.query(
                    [NostrFilter(kinds: [.workoutTemplate])], reader: .anonymous, limitCap: 10)
                    == [winner])
            // Every version but the winner was either superseded or replaced
            let replaced = outcomes.flatMap { if case .stored(let ids) = $0 { ids } else { [] } }
            let superseded = outcomes.filter { $0 == .superseded }.count
            #expect(replaced.count + superseded == versions.count - 1)
        }
    }

    @Test(
        "filters match ids, authors, kinds, tags, since and until as NIP-01 says, newest first, limited, as a union",
        arguments: StorageBackend.available)
    func filters(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given Ana's and Bea's events at known times
            let ana = try NostrSecretKey.generate()
            let bea = try NostrSecretKey.generate()
            let run = try Self.sign(ana, kind: .workoutRecord, "run", tags: [["t", "running"], ["e", "x1"]], at: 100)
            let lift = try Self.sign(ana, kind: .workoutRecord, "lift", tags: [["t", "lifting"]], at: 200)
            let note = try Self.sign(ana, "note", tags: [["t", "running"], ["p", bea.publicKey.rawValue]], at: 300)
            let beaRun = try Self.sign(
                bea, kind: .workoutRecord, "bea run", tags: [["t", "running"], ["e", "x2"]], at: 250)
            let tie = try Self.tiedPair(bea, kind: .textNote, tags: [["t", "tie"]], at: 400)
            for event in [run, lift, note, beaRun, tie.low, tie.high] {
                _ = try await storage.nostr.save(event, author: nil, receivedAt: Self.start)
            }
            func query(_ filters: NostrFilter..., cap: Int = Self.cap) async throws -> [NostrEvent] {
                try await storage.nostr.query(filters, reader: .anonymous, limitCap: cap)
            }

            // Then every event, newest first, ties by lowest id
            #expect(try await query(NostrFilter()) == [tie.low, tie.high, note, beaRun, lift, run])
            // ids, authors and kinds
            #expect(try await query(NostrFilter(ids: [run.id, note.id])) == [note, run])
            #expect(try await query(NostrFilter(authors: [ana.publicKey])) == [note, lift, run])
            #expect(
                try await query(NostrFilter(authors: [ana.publicKey, bea.publicKey], limit: 3)) == [
                    tie.low, tie.high, note,
                ])
            #expect(try await query(NostrFilter(kinds: [.workoutRecord])) == [beaRun, lift, run])
            #expect(try await query(NostrFilter(authors: [bea.publicKey], kinds: [.workoutRecord])) == [beaRun])
            // A tag condition matches any of its values; two conditions both
            #expect(try await query(NostrFilter(tags: ["t": ["running"]])) == [note, beaRun, run])
            #expect(try await query(NostrFilter(tags: ["t": ["running", "lifting"]])) == [note, beaRun, lift, run])
            #expect(try await query(NostrFilter(tags: ["t": ["running"], "e": ["x1", "x2"]])) == [beaRun, run])
            #expect(try await query(NostrFilter(tags: ["p": [bea.publicKey.rawValue]])) == [note])
            #expect(try await query(NostrFilter(tags: ["t": ["rowing"]])) == [])
            // since and until are inclusive
            #expect(try await query(NostrFilter(since: 200, until: 300)) == [note, beaRun, lift])
            #expect(try await query(NostrFilter(authors: [ana.publicKey], since: 200)) == [note, lift])
            #expect(
                try await query(NostrFilter(authors: [ana.publicKey, bea.publicKey], until: 250)) == [
                    beaRun, lift, run,
                ])
            // limit, and the cap on it
            #expect(try await query(NostrFilter(limit: 2)) == [tie.low, tie.high])
            #expect(try await query(NostrFilter(limit: 10), cap: 3) == [tie.low, tie.high, note])
            #expect(try await query(NostrFilter(limit: 0)) == [])
            #expect(try await query(NostrFilter(authors: [])) == [])
            // Several filters: a union, each limited on its own, nothing twice
            #expect(
                try await query(NostrFilter(kinds: [.workoutRecord], limit: 1), NostrFilter(tags: ["t": ["running"]]))
                    == [note, beaRun, run])
            #expect(
                try await query(NostrFilter(authors: [bea.publicKey], limit: 1), NostrFilter(ids: [run.id]))
                    == [tie.low, run])
        }
    }

    @Test("search finds events by the words of their content, as prefixes", arguments: StorageBackend.available)
    func search(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let key = try NostrSecretKey.generate()
            let squat = try Self.sign(key, "Heavy squats today, new PR!", at: 100)
            let deadlift = try Self.sign(key, "Deadlift and squat accessories", at: 200)
            let run = try Self.sign(key, "Easy run along the river", at: 300)
            for event in [squat, deadlift, run] {
                _ = try await storage.nostr.save(event, author: nil, receivedAt: Self.start)
            }
            func search(_ text: String, kinds: [NostrKind]? = nil) async throws -> [NostrEvent] {
                try await storage.nostr.query(
                    [NostrFilter(kinds: kinds, search: text)], reader: .anonymous, limitCap: Self.cap)
            }

            #expect(try await search("squat") == [deadlift, squat])
            #expect(try await search("SQUAT deadlift") == [deadlift])
            #expect(try await search("river language:en") == [run])
            #expect(try await search("rowing") == [])
            #expect(try await search("squat", kinds: [.workoutRecord]) == [])
            #expect(try await storage.nostr.count([NostrFilter(search: "squat")], reader: .anonymous) == 2)
        }
    }

    @Test(
        "count counts what the filters match together, each event once, without limits",
        arguments: StorageBackend.available)
    func count(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let key = try NostrSecretKey.generate()
            for index in 0..<5 {
                let tags = index.isMultiple(of: 2) ? [["t", "even"]] : [["t", "odd"]]
                _ = try await storage.nostr.save(
                    try Self.sign(key, "n\(index)", tags: tags, at: 100 + Int64(index)), author: nil,
                    receivedAt: Self.start)
            }
            func count(_ filters: NostrFilter...) async throws -> Int {
                try await storage.nostr.count(filters, reader: .anonymous)
            }
            #expect(try await count(NostrFilter(authors: [key.publicKey])) == 5)
            #expect(try await count(NostrFilter(tags: ["t": ["even"]], limit: 1)) == 3)
            #expect(try await count(NostrFilter(tags: ["t": ["even"]]), NostrFilter(since: 103)) == 4)
            #expect(try await count(NostrFilter(kinds: [.metadata])) == 0)
            #expect(try await count(NostrFilter(ids: [])) == 0)
        }
    }
}
