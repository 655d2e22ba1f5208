import Foundation
import SpotterModels
import SpotterNostr

/// Nostr keys on the account: link a key by signing the server's challenge, list and unlink keys, and sign in
/// with a key (NIP-98). The signer signs on the device; no secret key ever leaves it.
///
/// ```swift
/// let key = try NostrSecretKey.generate()          // or SpotterKit's Keychain-backed signer
/// try await client.linkNostrKey(signer: key)       // signed in already
/// // …later, on another device holding the same key:
/// let account = try await client.signInWithNostr(signer: key)
/// ```
extension SpotterClient {
    /// A one-time challenge (good for a minute) for ``linkNostrKey(signer:)``; most callers want that instead.
    public func nostrChallenge() async throws -> NostrChallenge {
        try await call(.change("POST", "/api/v1/nostr/challenge", key: nil))
    }

    /// Links the signer's key to the signed-in account: fetches a challenge, signs the kind 22242 event
    /// NIP-42 describes (naming the server's relay and the challenge) and sends it. A key linked to an
    /// account already is a 409.
    ///
    /// <https://github.com/nostr-protocol/nips/blob/master/42.md>
    @discardableResult
    public func linkNostrKey(signer: some NostrSigning) async throws -> NostrKey {
        let challenge = try await nostrChallenge()
        let event = try await NIP42.authEvent(relayURL: challenge.relayURL, challenge: challenge.challenge, key: signer)
        return try await call(
            .change(
                "POST", "/api/v1/nostr/keys", body: try Self.encoder.encode(NostrLinkRequest(event: event)), key: nil))
    }

    /// The keys linked to the signed-in account, oldest first.
    public func nostrKeys() async throws -> [NostrKey] {
        try await call(Call(method: "GET", path: "/api/v1/nostr/keys"))
    }

    /// Unlinks one of the account's keys (64 hex digits); it can no longer sign in.
    public func unlinkNostrKey(_ pubkey: String) async throws {
        _ = try await send(.change("DELETE", "/api/v1/nostr/keys/\(pubkey.pathEscaped)", key: nil))
    }

    /// Signs in with the signer's key, which must be linked to an account (or the server must allow sign-up by
    /// Nostr, which then makes one), and keeps the session like the other sign-ins. The request carries a
    /// NIP-98 event naming this URL and `POST`, made now and good once.
    ///
    /// <https://github.com/nostr-protocol/nips/blob/master/98.md>
    @discardableResult
    public func signInWithNostr(signer: some NostrSigning) async throws -> Account {
        let path = "/api/v1/auth/nostr"
        let url = baseURL.absoluteString.trimmingSuffix("/") + path
        let header = try await NIP98.authorizationHeader(url: url, method: "POST", key: signer)
        return try await signingIn {
            try await self.call(
                Call(method: "POST", path: path, authenticated: false, headers: ["Authorization": header]))
        }
    }
}
