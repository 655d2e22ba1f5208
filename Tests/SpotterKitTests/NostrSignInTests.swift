import Foundation
import SpotterCore
import SpotterKit
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// The SDK links a key and signs in with it against a live server, over HTTP as an app would.
@Suite("SpotterClient signs in with Nostr")
struct NostrSignInTests {
    @Test("link a key on one device, sign in with it on another, unlink it")
    func linkSignInUnlink() async throws {
        // The server's public address must be the one the client calls: the NIP-98 event names it.
        let port = try await LiveServer.freePort()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        try await StorageBackend.sqlite.withIsolatedStorage { storage in
            let server = try await LiveServer.start(
                storage: storage, port: port, configure: { $0.publicURL = base.absoluteString })
            defer { server.cancel() }
            // Given Ana, signed in with her password on her phone, who links a key
            let phone = SpotterClient(baseURL: base)
            let ana = try await phone.signUp(
                email: "ana@example.com", username: "ana", password: "correct horse battery")
            let key = try NostrSecretKey.generate()
            let linked = try await phone.linkNostrKey(signer: key)
            #expect(linked.pubkey == key.publicKey.rawValue)
            #expect(try await phone.nostrKeys() == [linked])

            // When she signs in on her laptop with the key alone
            let laptop = SpotterClient(baseURL: base)
            let account = try await laptop.signInWithNostr(signer: key)

            // Then it is her account, and the laptop's session works
            #expect(account.id == ana.id)
            #expect(try await laptop.me().username == "ana")

            // And once unlinked, the key signs in nowhere
            try await phone.unlinkNostrKey(linked.pubkey)
            #expect(try await phone.nostrKeys().isEmpty)
            let refused = await #expect(throws: SpotterClientError.self) {
                try await SpotterClient(baseURL: base).signInWithNostr(signer: key)
            }
            #expect(refused?.status == 401)
        }
    }
}
