import Foundation
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

@Suite("Nostr imports over the API: a contact list as follows, a profile as the account's name and bio")
struct NostrImportAPITests {
    /// Signs up `name` and links a new key to the account, as `POST /api/v1/nostr/keys` would.
    static func person(_ name: String, _ api: APIClient) async throws -> (TokenResponse, NostrSecretKey) {
        let tokens = try await api.signup(name)
        let key = try NostrSecretKey.generate()
        try await api.storage.nostr.link(key.publicKey, to: tokens.user.id, at: api.clock.now)
        return (tokens, key)
    }

    /// Signs and stores an event as the relay does.
    static func publish(
        _ kind: NostrKind, _ tags: [[String]], content: String = "", by key: NostrSecretKey, _ api: APIClient
    ) async throws {
        let event = try NostrEvent.sign(
            kind: kind, tags: tags, content: content, createdAt: Int64(api.clock.now.timeIntervalSince1970), with: key)
        _ = try await api.storage.nostr.save(
            event, author: try await api.storage.nostr.owner(of: key.publicKey), receivedAt: api.clock.now)
    }

    @Test(
        "a contact list follows the Spotter accounts whose keys it lists, and nobody hidden from the person",
        arguments: StorageBackend.available)
    func contacts(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, Bea and Cai with linked keys, Eve (linked) who blocked Ana, and a key on no account
            let (ana, anaKey) = try await Self.person("ana", api)
            let (_, beaKey) = try await Self.person("bea", api)
            let (_, caiKey) = try await Self.person("cai", api)
            let (eve, eveKey) = try await Self.person("eve", api)
            try await api.call(.post, "/api/v1/users/ana/block", token: eve.accessToken)
            let stranger = try NostrSecretKey.generate()
            // And Ana's contact list naming all of them, herself and Bea twice (an older list named only Cai)
            try await Self.publish(.contacts, [["p", caiKey.publicKey.rawValue]], by: anaKey, api)
            api.clock.advance(by: 10)
            let listed = [beaKey, caiKey, eveKey, stranger, anaKey, beaKey].map { ["p", $0.publicKey.rawValue] }
            try await Self.publish(.contacts, listed + [["p", "not-a-key"]], by: anaKey, api)

            // When she imports it
            let response = try await api.call(.post, "/api/v1/nostr/import/contacts", token: ana.accessToken)

            // Then she follows Bea and Cai, and the answer says so
            #expect(response.status == .ok)
            let result = try response.decode(NostrContactsImport.self)
            #expect(result.listed == 5)
            #expect(result.followed.map(\.username).sorted() == ["bea", "cai"])
            let following = try await api.call(.get, "/api/v1/users/ana/following", token: ana.accessToken)
                .decode(Page<AuthorSummary>.self)
            #expect(following.items.map(\.username).sorted() == ["bea", "cai"])
        }
    }

    @Test("a profile sets the display name and bio, and never the picture", arguments: StorageBackend.available)
    func profile(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let (ana, key) = try await Self.person("ana", api)
            // With no profile event on the relay, there is nothing to import
            let missing = try await api.call(.post, "/api/v1/nostr/import/profile", token: ana.accessToken)
            #expect(missing.status == .notFound)
            #expect(try missing.problem().status == 404)

            try await Self.publish(
                .metadata, [],
                content:
                    #"{"name":"ana","display_name":"Ana Runs","about":"Lifts and runs.","picture":"https://x.example/a.png"}"#,
                by: key, api)
            let response = try await api.call(.post, "/api/v1/nostr/import/profile", token: ana.accessToken)
            #expect(response.status == .ok)
            let account = try response.decode(Account.self)
            #expect(account.displayName == "Ana Runs")
            #expect(account.bio == "Lifts and runs.")
            #expect(account.avatarURL == nil)
        }
    }

    @Test("imports need a signed-in person", arguments: StorageBackend.available)
    func signedIn(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            for path in ["/api/v1/nostr/import/contacts", "/api/v1/nostr/import/profile"] {
                let response = try await api.call(.post, path, json: nil)
                #expect(response.status == .unauthorized)
            }
        }
    }
}
