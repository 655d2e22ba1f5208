import Foundation
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// The storage contract for what the relay lets out (Spotter's privacy, hidden events) and for NIP-09
/// deletions: every adapter passes the same cases.
@Suite("Storage contract: Nostr visibility and deletion")
struct NostrStoreVisibilityContractTests {
    static let start = StorageContractTests.start
    static let sign = NostrStoreContractTests.sign

    @Test(
        "events show only while their author is in good standing, public, and not blocking the reader; hidden never",
        arguments: StorageBackend.available)
    func privacy(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given Ana (public), Bea (suspended), Cai (private), Dee (blocks Eve), and a key linked to nobody
            let people = ["ana", "bea", "cai", "dee", "eve"].map { StorageContractTests.account("\($0)_relay") }
            for person in people { try await storage.accounts.create(person) }
            let (ana, bea, cai, dee, eve) = (people[0], people[1], people[2], people[3], people[4])
            try await storage.accounts.setSuspended(bea.id, at: Self.start)
            try await storage.accounts.updateProfile(
                cai.id, displayName: "Cai", profile: ProfileFields(privacy: .private))
            try await storage.graph.block(dee.id, eve.id, at: Self.start)
            var events: [String: NostrEvent] = [:]
            for (index, (name, author)) in [
                ("ana", ana.id), ("bea", bea.id), ("cai", cai.id), ("dee", dee.id), ("open", nil),
                ("hidden", ana.id),
            ].enumerated() {
                let event = try Self.sign(try .generate(), .textNote, name, [], 100 + Int64(index))
                events[name] = event
                _ = try await storage.nostr.save(event, author: author, receivedAt: Self.start)
            }
            try await storage.nostr.setHidden(events["hidden"]!.id, true)
            func seen(by reader: UserID?) async throws -> Set<String> {
                Set(
                    try await storage.nostr.query(
                        [NostrFilter()], reader: NostrReader(user: reader), limitCap: 100
                    ).map(\.content))
            }

            // Then nobody in particular sees Ana's, Dee's and the open key's
            #expect(try await seen(by: nil) == ["ana", "dee", "open"])
            #expect(try await storage.nostr.count([NostrFilter()], reader: .anonymous) == 3)
            // Eve, whom Dee blocks, doesn't see Dee's
            #expect(try await seen(by: eve.id) == ["ana", "open"])
            #expect(try await storage.nostr.count([NostrFilter()], reader: NostrReader(user: eve.id)) == 2)
            // Cai sees her own private one
            #expect(try await seen(by: cai.id) == ["ana", "cai", "dee", "open"])
            // Hidden stays hidden even from its author, until shown again
            #expect(try await seen(by: ana.id) == ["ana", "dee", "open"])
            #expect(try await storage.nostr.find(events["hidden"]!.id)?.hidden == true)
            try await storage.nostr.setHidden(events["hidden"]!.id, false)
            #expect(try await seen(by: nil) == ["ana", "dee", "open", "hidden"])
            // And a filter by authors goes through the same rule
            #expect(
                try await storage.nostr.query(
                    [NostrFilter(authors: [events["cai"]!.pubkey, events["bea"]!.pubkey, events["ana"]!.pubkey])],
                    reader: .anonymous, limitCap: 100) == [events["ana"]!])

            // When Bea is reinstated, hers show again
            try await storage.accounts.setSuspended(bea.id, at: nil)
            #expect(try await seen(by: nil) == ["ana", "bea", "dee", "open", "hidden"])
        }
    }

    @Test(
        "linking a key gives its events stored before to the account, which then decides who sees them",
        arguments: StorageBackend.available)
    func linkAttributes(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let cai = StorageContractTests.account("cai_link")
            try await storage.accounts.create(cai)
            try await storage.accounts.updateProfile(
                cai.id, displayName: "Cai", profile: ProfileFields(privacy: .private))
            let key = try NostrSecretKey.generate()
            let note = try Self.sign(key, .textNote, "before linking", [], 100)
            _ = try await storage.nostr.save(note, author: nil, receivedAt: Self.start)
            #expect(try await storage.nostr.query([NostrFilter()], reader: .anonymous, limitCap: 10) == [note])

            try await storage.nostr.link(key.publicKey, to: cai.id, at: Self.start)

            #expect(try await storage.nostr.find(note.id)?.author == cai.id)
            #expect(try await storage.nostr.query([NostrFilter()], reader: .anonymous, limitCap: 10) == [])
        }
    }

    @Test(
        "a deletion request hides its author's events it names by id or address, and keeps them from coming back",
        arguments: StorageBackend.available)
    func deletion(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given Ana's note, template and reaction, and Bea's note
            let ana = try NostrSecretKey.generate()
            let bea = try NostrSecretKey.generate()
            let note = try Self.sign(ana, .textNote, "note", [], 100)
            let template = try Self.sign(ana, .exerciseTemplate, "squat", [["d", "squat"]], 100)
            let kept = try Self.sign(ana, .textNote, "kept", [], 100)
            let beas = try Self.sign(bea, .textNote, "bea", [], 100)
            for event in [note, template, kept, beas] {
                _ = try await storage.nostr.save(event, author: nil, receivedAt: Self.start)
            }

            // When Ana asks to delete her note, her template's address, and Bea's note
            let address = "\(NostrKind.exerciseTemplate.rawValue):\(ana.publicKey.rawValue):squat"
            let request = try Self.sign(
                ana, .deletion, "",
                [
                    ["e", note.id.rawValue], ["e", beas.id.rawValue], ["a", address],
                    ["a", "\(NostrKind.exerciseTemplate.rawValue):\(bea.publicKey.rawValue):squat"],
                ], 200)
            #expect(try await storage.nostr.save(request, author: nil, receivedAt: Self.start) == .stored(replaced: []))
            let hidden = try await storage.nostr.applyDeletion(request)

            // Then her note and template are hidden, Bea's note is not
            #expect(Set(hidden) == [note.id, template.id])
            #expect(try await storage.nostr.find(note.id)?.hidden == true)
            #expect(try await storage.nostr.find(beas.id)?.hidden == false)
            #expect(
                Set(
                    try await storage.nostr.query(
                        [NostrFilter(kinds: [.textNote, .exerciseTemplate])], reader: .anonymous, limitCap: 10))
                    == [kept, beas])
            // And the request itself shows, and another request cannot delete it
            let undo = try Self.sign(ana, .deletion, "", [["e", request.id.rawValue]], 300)
            _ = try await storage.nostr.save(undo, author: nil, receivedAt: Self.start)
            #expect(try await storage.nostr.applyDeletion(undo) == [])
            #expect(try await storage.nostr.find(request.id)?.hidden == false)

            // When the deleted note comes again, or a template version made up to the request, they are refused
            #expect(try await storage.nostr.save(note, author: nil, receivedAt: Self.start) == .deleted)
            let sameTime = try Self.sign(ana, .exerciseTemplate, "squat again", [["d", "squat"]], 200)
            #expect(try await storage.nostr.save(sameTime, author: nil, receivedAt: Self.start) == .deleted)
            // But a later version of the template is kept, and Bea may still save hers
            let later = try Self.sign(ana, .exerciseTemplate, "squat v2", [["d", "squat"]], 201)
            #expect(
                try await storage.nostr.save(later, author: nil, receivedAt: Self.start)
                    == .stored(replaced: [template.id]))
            let beaTemplate = try Self.sign(bea, .exerciseTemplate, "bea squat", [["d", "squat"]], 150)
            #expect(
                try await storage.nostr.save(beaTemplate, author: nil, receivedAt: Self.start) == .stored(replaced: []))
        }
    }

    @Test("a unit of work that throws takes its saved events back with it", arguments: StorageBackend.available)
    func rollback(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            struct Refused: Error {}
            let key = try NostrSecretKey.generate()
            let note = try Self.sign(key, .textNote, "rolled back", [["t", "gone"]], 100)
            let profile = try Self.sign(key, .metadata, "{}", [], 100)
            _ = try await storage.nostr.save(profile, author: nil, receivedAt: Self.start)
            let newer = try Self.sign(key, .metadata, "{\"name\":\"x\"}", [], 200)

            await #expect(throws: Refused.self) {
                try await storage.write {
                    #expect(
                        try await storage.nostr.save(note, author: nil, receivedAt: Self.start) == .stored(replaced: [])
                    )
                    #expect(
                        try await storage.nostr.save(newer, author: nil, receivedAt: Self.start)
                            == .stored(replaced: [profile.id]))
                    // Inside the unit its own writes show
                    #expect(try await storage.nostr.find(note.id) != nil)
                    throw Refused()
                }
            }

            #expect(try await storage.nostr.find(note.id) == nil)
            #expect(try await storage.nostr.find(newer.id) == nil)
            #expect(try await storage.nostr.find(profile.id) != nil)
            #expect(
                try await storage.nostr.query([NostrFilter(tags: ["t": ["gone"]])], reader: .anonymous, limitCap: 10)
                    == [])
            // And the event can be saved afresh
            #expect(try await storage.nostr.save(note, author: nil, receivedAt: Self.start) == .stored(replaced: []))
        }
    }
}
