import Foundation

/// Something that signs events for one key: a key held in memory, the device's Keychain or key file
/// (SpotterKit's `NostrSigner`), or a browser extension. Callers that need a signature take this, so none of
/// them ever needs the secret itself.
public protocol NostrSigning: Sendable {
    var publicKey: NostrPublicKey { get async throws }
    /// Signs an event of these fields, at `createdAt` (now when `nil`).
    func sign(kind: NostrKind, tags: [[String]], content: String, createdAt: Int64?) async throws -> NostrEvent
}

extension NostrSecretKey: NostrSigning {
    public func sign(
        kind: NostrKind, tags: [[String]], content: String, createdAt: Int64?
    ) async throws
        -> NostrEvent
    {
        try NostrEvent.sign(kind: kind, tags: tags, content: content, createdAt: createdAt, with: self)
    }
}
