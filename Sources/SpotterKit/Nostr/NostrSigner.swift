import Foundation
import SpotterNostr

/// The person's Nostr key on this device, and the one thing that signs with it: events are signed here and
/// only their signatures leave. The secret stays in its `NostrKeyStore` (the Keychain on Apple platforms, a
/// 0600 file on Linux); no description, log line or error of this type contains it.
///
/// ```swift
/// let signer = NostrSigner(store: KeychainNostrKeyStore())
/// let publicKey = try await signer.generate()          // or: try await signer.importKey("nsec1…")
/// let note = try await signer.sign(kind: .textNote, tags: [], content: "5k done", createdAt: nil)
/// ```
public actor NostrSigner: NostrSigning, CustomStringConvertible, CustomDebugStringConvertible {
    public nonisolated let store: any NostrKeyStore
    /// The key once read, so signing many events reads the store once.
    private var cached: NostrSecretKey?

    public init(store: any NostrKeyStore) { self.store = store }

    /// Whether a key is stored on this device.
    public var hasKey: Bool {
        get async throws { try await key() != nil }
    }

    /// The stored key's public half; throws `NostrSignerError.noKey` when there is none.
    public var publicKey: NostrPublicKey {
        get async throws {
            guard let key = try await key() else { throw NostrSignerError.noKey }
            return key.publicKey
        }
    }

    /// Makes a new key from the system's secure generator and stores it, replacing any other.
    @discardableResult
    public func generate() async throws -> NostrPublicKey {
        let key = try NostrSecretKey.generate()
        try await store.save(key)
        cached = key
        return key.publicKey
    }

    /// Stores a key the person already has: 64 hex digits or an `nsec1…` (NIP-19). Throws
    /// `NostrSignerError.notASecretKey`, which does not repeat what was given.
    @discardableResult
    public func importKey(_ text: String) async throws -> NostrPublicKey {
        let key = try Self.parse(text)
        try await store.save(key)
        cached = key
        return key.publicKey
    }

    /// Forgets the key on this device. Events it signed stay valid; a key linked to an account stays linked
    /// until it is unlinked.
    public func delete() async throws {
        try await store.delete()
        cached = nil
    }

    public func sign(kind: NostrKind, tags: [[String]], content: String, createdAt: Int64?) async throws -> NostrEvent {
        guard let key = try await key() else { throw NostrSignerError.noKey }
        return try NostrEvent.sign(kind: kind, tags: tags, content: content, createdAt: createdAt, with: key)
    }

    public nonisolated var description: String { "NostrSigner(\(store), secret redacted)" }
    public nonisolated var debugDescription: String { description }

    private func key() async throws -> NostrSecretKey? {
        if let cached { return cached }
        cached = try await store.load()
        return cached
    }

    /// A secret key from hex or `nsec`.
    static func parse(_ text: String) throws -> NostrSecretKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.utf8.count == 64, let key = try? NostrSecretKey(hex: trimmed.lowercased()) { return key }
        if trimmed.lowercased().hasPrefix("nsec1"), case .secretKey(let key)? = try? NIP19Entity(bech32: trimmed) {
            return key
        }
        throw NostrSignerError.notASecretKey
    }
}

public enum NostrSignerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No key is stored on this device: generate or import one.
    case noKey
    /// What was given is not a secret key (64 hex digits or `nsec1…`).
    case notASecretKey

    public var description: String {
        switch self {
        case .noKey: "there is no Nostr key on this device; make one (keygen) or import yours"
        case .notASecretKey: "that is not a Nostr secret key: give 64 hex digits or an nsec1… key"
        }
    }
}
