import Foundation
import SpotterNostr

/// Where a device keeps the person's Nostr secret key: the Keychain on Apple platforms
/// (`KeychainNostrKeyStore`), a file only its owner can read on Linux (`FileNostrKeyStore`). The key never
/// leaves the device: `NostrSigner` signs with it, and nothing else reads it.
public protocol NostrKeyStore: Sendable {
    /// The stored key, or nil when there is none.
    func load() async throws -> NostrSecretKey?
    /// Stores the key, replacing any other.
    func save(_ key: NostrSecretKey) async throws
    /// Forgets the key; nothing happens when there is none.
    func delete() async throws
}

/// Why a key store could not do what was asked. Never carries the secret, nor the file's contents.
public enum NostrKeyStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key file can be read by others than its owner: the key may be known, so it is not used.
    case readableByOthers(path: String, mode: UInt16)
    /// The key file does not hold a secret key.
    case unreadable(path: String)
    /// The operating system refused (errno or a Keychain status).
    case system(String)

    public var description: String {
        switch self {
        case .readableByOthers(let path, let mode):
            "\(path) can be read by others (mode \(String(mode, radix: 8))); its key may be known. "
                + "Make it private (chmod 600 \(path)) if only you could ever read it, or make a new key."
        case .unreadable(let path): "\(path) does not hold a Nostr secret key."
        case .system(let detail): "the key store failed: \(detail)"
        }
    }
}

/// Keeps a key for the life of the process only: for previews and for tools that make one each run.
public actor MemoryNostrKeyStore: NostrKeyStore, CustomStringConvertible {
    private var key: NostrSecretKey?

    public init(_ key: NostrSecretKey? = nil) { self.key = key }

    public func load() -> NostrSecretKey? { key }
    public func save(_ key: NostrSecretKey) { self.key = key }
    public func delete() { key = nil }

    public nonisolated var description: String { "MemoryNostrKeyStore(secret redacted)" }
}
