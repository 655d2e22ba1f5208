import Foundation
import SpotterNostr

/// Keeps the secret key as 64 hex digits in a file of mode 0600 inside a folder of mode 0700, as `ssh` keeps
/// its keys, for Linux and the terminal client (`OwnerOnlyFile`). A file that others can read is refused with
/// `NostrKeyStoreError.readableByOthers`: its key may be known.
///
/// ```swift
/// let store = FileNostrKeyStore(path: NSHomeDirectory() + "/.config/spotter/nostr.key")
/// let signer = NostrSigner(store: store)
/// let key = try await signer.generate()
/// ```
public struct FileNostrKeyStore: NostrKeyStore, CustomStringConvertible {
    public let path: String

    public init(path: String) { self.path = path }

    public var description: String { "FileNostrKeyStore(\(path))" }

    public func load() throws -> NostrSecretKey? {
        guard let data = try mapped({ () throws(OwnerOnlyFile.Failure) in try OwnerOnlyFile.read(path) }) else {
            return nil
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = try? NostrSecretKey(hex: text) else { throw NostrKeyStoreError.unreadable(path: path) }
        return key
    }

    public func save(_ key: NostrSecretKey) throws {
        try mapped { () throws(OwnerOnlyFile.Failure) in try OwnerOnlyFile.replace(path, with: (key.hex + "\n").utf8) }
    }

    public func delete() throws {
        try mapped { () throws(OwnerOnlyFile.Failure) in try OwnerOnlyFile.delete(path) }
    }

    /// The file's failures in this store's words.
    private func mapped<T>(_ body: () throws(OwnerOnlyFile.Failure) -> T) throws -> T {
        do { return try body() } catch {
            switch error {
            case .readableByOthers(let mode): throw NostrKeyStoreError.readableByOthers(path: path, mode: mode)
            case .system(let detail): throw NostrKeyStoreError.system(detail)
            }
        }
    }
}
