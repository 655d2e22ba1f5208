import Foundation
import SpotterNostr

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the secret key as 64 hex digits in a file of mode 0600 inside a folder of mode 0700, as `ssh` keeps
/// its keys, for Linux and the terminal client. Written atomically (a temporary file opened 0600, then
/// renamed), so the key is never readable by others, even briefly, and a crash leaves the old key or the new.
/// A file that others can read is refused with `NostrKeyStoreError.readableByOthers`: its key may be known.
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
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw NostrKeyStoreError.system("cannot read \(path): \(Self.errorText())")
        }
        let mode = UInt16(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else { throw NostrKeyStoreError.readableByOthers(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NostrKeyStoreError.system("cannot read \(path): \(Self.errorText())")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = try? NostrSecretKey(hex: text) else { throw NostrKeyStoreError.unreadable(path: path) }
        return key
    }

    public func save(_ key: NostrSecretKey) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw NostrKeyStoreError.system("cannot create \(folder)")
        }
        // The folder may have existed with a wider mode (the client's config folder): others may list it, but
        // the key file itself stays 0600.
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw NostrKeyStoreError.system("cannot write \(temporary): \(Self.errorText())") }
        fchmod(descriptor, 0o600)  // a leftover temporary file may have had another mode
        let data = Array((key.hex + "\n").utf8)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0 else {
            unlink(temporary)
            throw NostrKeyStoreError.system("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let text = Self.errorText()
            unlink(temporary)
            throw NostrKeyStoreError.system("cannot replace \(path): \(text)")
        }
    }

    public func delete() throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw NostrKeyStoreError.system("cannot delete \(path): \(Self.errorText())")
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
