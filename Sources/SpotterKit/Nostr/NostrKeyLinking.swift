import Foundation
import SpotterModels
import SpotterNostr

/// Linking the device's key to the signed-in account, and remembering that it is linked: a public workout is
/// signed on the device only when the device's key is the account's (`linkedKey`), which must be known
/// offline too, so the answer is kept in the client database.
///
/// ```swift
/// let signer = NostrSigner(store: KeychainNostrKeyStore())
/// try await signer.generate()
/// try await session.nostr.link(signer, using: session.client)   // signs the server's challenge here
/// ```
extension NostrPublisher {
    /// Links the signer's key to the signed-in account (the server's challenge, signed on the device) and
    /// records it. A key linked to this account already counts as linked; linked to another, the 409 is thrown.
    @discardableResult
    public func link(_ signer: any NostrSigning, using client: SpotterClient) async throws -> NostrPublicKey {
        let key = try await signer.publicKey
        do {
            _ = try await client.linkNostrKey(signer: signer)
        } catch SpotterClientError.problem(let problem) where problem.status == 409 {
            guard try await client.nostrKeys().contains(where: { $0.pubkey == key.rawValue }) else {
                throw SpotterClientError.problem(problem)
            }
        }
        try await setLinkedKey(key)
        return key
    }

    /// Unlinks the signer's key from the account; workouts go through REST again.
    public func unlink(_ signer: any NostrSigning, using client: SpotterClient) async throws {
        let key = try await signer.publicKey
        try await client.unlinkNostrKey(key.rawValue)
        try await setLinkedKey(nil)
    }

    /// Asks the server whether the signer's key is linked to the signed-in account, and records the answer.
    @discardableResult
    public func refreshLink(_ signer: any NostrSigning, using client: SpotterClient) async throws -> Bool {
        let key = try await signer.publicKey
        let linked = try await client.nostrKeys().contains { $0.pubkey == key.rawValue }
        try await setLinkedKey(linked ? key : nil)
        return linked
    }
}
