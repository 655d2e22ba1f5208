import Foundation
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// The storage contract for linked Nostr keys, their one-time values and imports: every adapter passes the same
/// cases.
@Suite("Storage contract: Nostr keys")
struct NostrKeyStoreContractTests {
    static let start = StorageContractTests.start

    @Test(
        "a key links to one account only, is found by its owner, and unlinks only from it",
        arguments: StorageBackend.available)
    func links(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given Ana and Bea, and two keys
            let ana = StorageContractTests.account("ana_nostr")
            let bea = StorageContractTests.account("bea_nostr")
            try await storage.accounts.create(ana)
            try await storage.accounts.create(bea)
            let first = try NostrSecretKey.generate().publicKey
            let second = try NostrSecretKey.generate().publicKey

            // When Ana links both
            try await storage.nostr.link(first, to: ana.id, at: Self.start)
            try await storage.nostr.link(second, to: ana.id, at: Self.start + 10)

            // Then they are hers, in the order she linked them
            #expect(try await storage.nostr.owner(of: first) == ana.id)
            #expect(
                try await storage.nostr.keys(of: ana.id) == [
                    LinkedNostrKey(pubkey: first, user: ana.id, linkedAt: Self.start),
                    LinkedNostrKey(pubkey: second, user: ana.id, linkedAt: Self.start + 10),
                ])
            #expect(try await storage.nostr.keys(of: bea.id) == [])

            // And neither Bea nor Ana again can link the first one
            await #expect(throws: StorageError.duplicate(field: "pubkey")) {
                try await storage.nostr.link(first, to: bea.id, at: Self.start + 20)
            }
            await #expect(throws: StorageError.duplicate(field: "pubkey")) {
                try await storage.nostr.link(first, to: ana.id, at: Self.start + 20)
            }

            // When Bea tries to unlink it, nothing happens; when Ana does, it is free for Bea
            #expect(try await storage.nostr.unlink(first, from: bea.id) == false)
            #expect(try await storage.nostr.owner(of: first) == ana.id)
            #expect(try await storage.nostr.unlink(first, from: ana.id) == true)
            #expect(try await storage.nostr.unlink(first, from: ana.id) == false)
            #expect(try await storage.nostr.owner(of: first) == nil)
            try await storage.nostr.link(first, to: bea.id, at: Self.start + 30)
            #expect(try await storage.nostr.keys(of: bea.id).map(\.pubkey) == [first])
            #expect(try await storage.nostr.keys(of: ana.id).map(\.pubkey) == [second])
        }
    }

    @Test("of two accounts linking one key at once, exactly one gets it", arguments: StorageBackend.available)
    func concurrentLinks(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = StorageContractTests.account("ana_race")
            let bea = StorageContractTests.account("bea_race")
            try await storage.accounts.create(ana)
            try await storage.accounts.create(bea)
            let key = try NostrSecretKey.generate().publicKey

            @Sendable func linked(_ user: UserID) async throws -> Bool {
                do {
                    try await storage.nostr.link(key, to: user, at: Self.start)
                    return true
                } catch StorageError.duplicate(field: "pubkey") {
                    return false
                }
            }
            async let first = linked(ana.id)
            async let second = linked(bea.id)

            #expect(try await [first, second].filter { $0 }.count == 1)
            let owner = try #require(try await storage.nostr.owner(of: key))
            #expect([ana.id, bea.id].contains(owner))
        }
    }

    @Test(
        "a challenge is used once, not after it expires, and by one of two racing uses",
        arguments: StorageBackend.available)
    func challenges(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given three challenges of Ana's
            let ana = StorageContractTests.account("ana_challenge")
            try await storage.accounts.create(ana)
            for hash in ["once", "late", "raced", "swept"] {
                try await storage.nostr.insertChallenge(hash: hash, user: ana.id, expiresAt: Self.start + 60)
            }

            // Then one is used once
            #expect(try await storage.nostr.consumeChallenge(hash: "once", at: Self.start + 1) == ana.id)
            #expect(try await storage.nostr.consumeChallenge(hash: "once", at: Self.start + 2) == nil)
            // And one used at its expiry gives nobody, and is gone
            #expect(try await storage.nostr.consumeChallenge(hash: "late", at: Self.start + 60) == nil)
            #expect(try await storage.nostr.consumeChallenge(hash: "late", at: Self.start + 1) == nil)
            #expect(try await storage.nostr.consumeChallenge(hash: "unknown", at: Self.start) == nil)

            // When two uses race, exactly one gets Ana
            async let first = storage.nostr.consumeChallenge(hash: "raced", at: Self.start + 1)
            async let second = storage.nostr.consumeChallenge(hash: "raced", at: Self.start + 1)
            #expect(try await [first, second].compactMap { $0 } == [ana.id])

            // When expired values are swept, the expired challenge is gone and a fresh one stays
            try await storage.nostr.insertChallenge(hash: "fresh", user: ana.id, expiresAt: Self.start + 600)
            try await storage.nostr.deleteExpiredOneTimeValues(before: Self.start + 61)
            #expect(try await storage.nostr.consumeChallenge(hash: "swept", at: Self.start) == nil)
            #expect(try await storage.nostr.consumeChallenge(hash: "fresh", at: Self.start + 100) == ana.id)
        }
    }

    @Test(
        "an authorization event is used once; a replay is refused until it is swept",
        arguments: StorageBackend.available)
    func authorizations(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let key = try NostrSecretKey.generate()
            let first = try NostrEvent.sign(kind: .httpAuthentication, content: "", with: key).id
            let second = try NostrEvent.sign(kind: .httpAuthentication, content: "again", with: key).id

            #expect(try await storage.nostr.markAuthorizationUsed(first, expiresAt: Self.start + 60) == true)
            #expect(try await storage.nostr.markAuthorizationUsed(first, expiresAt: Self.start + 60) == false)
            #expect(try await storage.nostr.markAuthorizationUsed(second, expiresAt: Self.start + 600) == true)

            async let raceA = storage.nostr.markAuthorizationUsed(
                NostrEventID(unchecked: String(repeating: "a", count: 64)), expiresAt: Self.start + 60)
            async let raceB = storage.nostr.markAuthorizationUsed(
                NostrEventID(unchecked: String(repeating: "a", count: 64)), expiresAt: Self.start + 60)
            #expect(try await [raceA, raceB].filter { $0 }.count == 1)

            try await storage.nostr.deleteExpiredOneTimeValues(before: Self.start + 61)
            #expect(try await storage.nostr.markAuthorizationUsed(first, expiresAt: Self.start + 120) == true)
            #expect(try await storage.nostr.markAuthorizationUsed(second, expiresAt: Self.start + 600) == false)
        }
    }

    @Test(
        "an event is imported once, and its import is found by event and by target", arguments: StorageBackend.available
    )
    func imports(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given one import of every kind of target, and a second event that became the same post
            let post = PostID.generate()
            let user = UserID.generate()
            let targets: [NostrImport.Target] = [
                .post(post), .exerciseTemplate(.generate()), .workoutTemplate(.generate()), .kudos(post, by: user),
                .comment(post, .generate()), .none,
            ]
            var records: [NostrImport] = []
            for (index, target) in targets.enumerated() {
                let record = NostrImport(
                    eventID: NostrEventID(unchecked: String(repeating: "\(index)", count: 64)), target: target,
                    importedAt: Self.start + Double(index))
                try await storage.nostr.recordImport(record)
                records.append(record)
            }
            let edit = NostrImport(
                eventID: NostrEventID(unchecked: String(repeating: "e", count: 64)), target: .post(post),
                importedAt: Self.start + 100)
            try await storage.nostr.recordImport(edit)

            // Then each is found by its event id
            for record in records {
                #expect(try await storage.nostr.importRecord(of: record.eventID) == record)
            }
            #expect(
                try await storage.nostr.importRecord(of: NostrEventID(unchecked: String(repeating: "f", count: 64)))
                    == nil)
            // And by its target, the post's two in order and none of the kudos or comment on it
            #expect(try await storage.nostr.imports(of: .post(post)) == [records[0], edit])
            for (index, target) in targets.enumerated().dropFirst() {
                #expect(try await storage.nostr.imports(of: target) == [records[index]])
            }
            #expect(try await storage.nostr.imports(of: .post(.generate())) == [])

            // And importing an event again is refused, whatever it would become
            await #expect(throws: StorageError.duplicate(field: "event_id")) {
                try await storage.nostr.recordImport(
                    NostrImport(eventID: records[1].eventID, target: .post(.generate()), importedAt: Self.start))
            }
            #expect(try await storage.nostr.importRecord(of: records[1].eventID) == records[1])
        }
    }
}
