import Foundation
import HummingbirdTesting
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// Linking a Nostr key by signing a challenge (`POST /api/v1/nostr/challenge`, then `POST /api/v1/nostr/keys`),
/// listing and unlinking keys.
@Suite("Linking Nostr keys")
struct NostrKeyLinkTests {
    @Test("a signed challenge links the key, once, and it lists with its npub", arguments: StorageBackend.available)
    func linkHappyPath(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana and a key of hers
            let ana = try await api.user("ana")
            let key = try NostrSecretKey.generate()
            // When she asks for a challenge and answers it with the key
            let challenge = try await api.nostrChallenge(ana)
            #expect(challenge.relayURL == "ws://127.0.0.1:8080/relay")
            #expect(abs(challenge.expiresAt.timeIntervalSince(api.clock.now) - 60) < 1)
            let linked = try await api.link(ana, try api.linkEvent(challenge, key))
            // Then the key is hers, listed with its NIP-19 form
            #expect(linked.status == 201, "\(linked.text)")
            let keys = try await api.call(.get, "/api/v1/nostr/keys", token: ana).decode([NostrKey].self)
            #expect(keys.map(\.pubkey) == [key.publicKey.rawValue])
            #expect(keys.first?.npub.hasPrefix("npub1") == true && keys.first?.npub.count == 63)
        }
    }

    @Test("NIP-19's example key is written as NIP-19 writes it")
    func npubOfTheNIPExample() async throws {
        try await TestApp.run(.sqlite) { api in
            // The key and npub NIP-19 gives as its example, linked by way of the storage port
            let ana = try await api.signup("ana")
            let pubkey = try #require(
                NostrPublicKey(rawValue: "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d"))
            try await api.storage.nostr.link(pubkey, to: ana.user.id, at: api.clock.now)
            let keys = try await api.call(.get, "/api/v1/nostr/keys", token: ana.accessToken).decode([NostrKey].self)
            #expect(keys.map(\.npub) == ["npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6"])
        }
    }

    @Test("a reused, expired or someone else's challenge is refused", arguments: StorageBackend.available)
    func challengeOnce(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bo = try await api.user("bob")
            // Reused: the first answer links, a second answer to the same challenge (another key) is refused
            let challenge = try await api.nostrChallenge(ana)
            #expect(try await api.link(ana, try api.linkEvent(challenge, try .generate())).status == 201)
            try await expectRefused(api.link(ana, try api.linkEvent(challenge, try .generate())), "challenge")
            // Expired: answered 61 seconds after it was given (the event itself made just now)
            let stale = try await api.nostrChallenge(ana)
            api.clock.advance(by: 61)
            try await expectRefused(api.link(ana, try api.linkEvent(stale, try .generate())), "challenge")
            // Someone else's: Bo's challenge answered by Ana, and Bo can't use it afterwards either
            let bos = try await api.nostrChallenge(bo)
            try await expectRefused(api.link(ana, try api.linkEvent(bos, try .generate())), "challenge")
            try await expectRefused(api.link(bo, try api.linkEvent(bos, try .generate())), "challenge")
        }
    }

    @Test("a wrong relay tag, kind, signature, id or age is a 422 naming event", arguments: StorageBackend.available)
    func wrongEvents(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let key = try NostrSecretKey.generate()
            let now = Int64(api.clock.now.timeIntervalSince1970)
            let cases: [(String, @Sendable (NostrChallenge) throws -> NostrEvent)] = [
                ("relay tag", { try api.linkEvent($0, key, relay: "wss://elsewhere.example/relay") }),
                ("kind", { try api.linkEvent($0, key, kind: .httpAuthentication) }),
                ("older", { try api.linkEvent($0, key, createdAt: now - 61) }),
                ("ahead", { try api.linkEvent($0, key, createdAt: now + 61) }),
                (
                    "signature",
                    {
                        var event = try api.linkEvent($0, key)
                        event.sig = try api.linkEvent($0, try .generate()).sig  // another key's signature
                        return event
                    }
                ),
                (
                    "hash",
                    {
                        var event = try api.linkEvent($0, key)
                        event.content = "changed after signing"
                        return event
                    }
                ),
            ]
            for (problem, make) in cases {
                let challenge = try await api.nostrChallenge(ana)
                try await expectRefused(api.link(ana, try make(challenge)), problem)
            }
            // And none of them linked the key
            #expect(try await api.call(.get, "/api/v1/nostr/keys", token: ana).decode([NostrKey].self).isEmpty)
        }
    }

    @Test(
        "a key linked to another account, or to this one, is a 409 naming pubkey", arguments: StorageBackend.available)
    func linkedElsewhere(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bo = try await api.user("bob")
            let key = try NostrSecretKey.generate()
            #expect(try await api.link(ana, try api.linkEvent(try await api.nostrChallenge(ana), key)).status == 201)
            for caller in [bo, ana] {
                let again = try await api.link(caller, try api.linkEvent(try await api.nostrChallenge(caller), key))
                #expect(again.status == 409)
                #expect(try again.problem().errors?.map(\.field) == ["pubkey"])
            }
        }
    }

    @Test("unlinking frees the key; another's key or no key is not found", arguments: StorageBackend.available)
    func unlink(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bo = try await api.user("bob")
            let key = try NostrSecretKey.generate()
            #expect(try await api.link(ana, try api.linkEvent(try await api.nostrChallenge(ana), key)).status == 201)
            let path = "/api/v1/nostr/keys/\(key.publicKey.rawValue)"
            // Bo can't unlink Ana's key; nonsense is not found either
            #expect(try await api.call(.delete, path, token: bo).status == .notFound)
            #expect(try await api.call(.delete, "/api/v1/nostr/keys/nope", token: ana).status == .notFound)
            // Ana can, and then Bo may link it
            #expect(try await api.call(.delete, path, token: ana).status == .noContent)
            #expect(try await api.call(.delete, path, token: ana).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/nostr/keys", token: ana).decode([NostrKey].self).isEmpty)
            #expect(try await api.link(bo, try api.linkEvent(try await api.nostrChallenge(bo), key)).status == 201)
        }
    }

    @Test("the key routes need a signed-in caller")
    func signedInOnly() async throws {
        try await TestApp.run(.sqlite) { api in
            let challenge = try await api.call(.post, "/api/v1/nostr/challenge")
            let keys = try await api.call(.get, "/api/v1/nostr/keys")
            #expect(challenge.status == .unauthorized && keys.status == .unauthorized)
        }
    }

    private func expectRefused(
        _ response: TestResponse, _ saying: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == .unprocessableContent, "\(saying): \(response.text)", sourceLocation: sourceLocation)
        let errors = try response.problem().errors ?? []
        #expect(errors.map(\.field) == ["event"], sourceLocation: sourceLocation)
        #expect(
            errors.first?.detail.contains(saying) == true, "\(saying): \(errors)", sourceLocation: sourceLocation)
    }
}

extension APIClient {
    func nostrChallenge(_ token: String) async throws -> NostrChallenge {
        let response = try await call(.post, "/api/v1/nostr/challenge", token: token)
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(NostrChallenge.self)
    }

    /// A kind 22242 event answering `challenge`, made now by the server's clock unless told otherwise.
    func linkEvent(
        _ challenge: NostrChallenge, _ key: NostrSecretKey, relay: String? = nil,
        kind: NostrKind = .clientAuthentication, createdAt: Int64? = nil
    ) throws -> NostrEvent {
        try NostrEvent.sign(
            kind: kind, tags: [["relay", relay ?? challenge.relayURL], ["challenge", challenge.challenge]],
            content: "", createdAt: createdAt ?? Int64(clock.now.timeIntervalSince1970), with: key)
    }

    func link(_ token: String, _ event: NostrEvent) async throws -> TestResponse {
        try await call(.post, "/api/v1/nostr/keys", token: token, body: NostrLinkRequest(event: event))
    }

    /// Links a new key to the account, the way a person does.
    func linkNewKey(_ token: String) async throws -> NostrSecretKey {
        let key = try NostrSecretKey.generate()
        let response = try await link(token, try linkEvent(try await nostrChallenge(token), key))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return key
    }
}
