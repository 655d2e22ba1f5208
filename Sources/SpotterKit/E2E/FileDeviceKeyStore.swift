import Foundation
import SpotterModels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps each person's device identity as JSON in `device-<user id>.json`, mode 0600, inside a folder the
/// caller gives, made mode 0700: for Linux, the terminal client and tests. Written atomically (a temporary
/// file opened 0600, then renamed), so the keys are never readable by others, even briefly, and a crash leaves
/// the old identity or the new. A file others can read is refused (`DeviceKeyStoreError.readableByOthers`).
///
/// ```swift
/// let store = FileDeviceKeyStore(directory: NSHomeDirectory() + "/.config/spotter/e2e")
/// ```
public struct FileDeviceKeyStore: DeviceKeyStore, CustomStringConvertible {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public var description: String { "FileDeviceKeyStore(\(directory))" }

    /// The file that holds `user`'s identity.
    public func path(for user: UserID) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent("device-\(user).json").path
    }

    public func load(for user: UserID) throws -> DeviceIdentity? {
        let path = path(for: user)
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw DeviceKeyStoreError.system("cannot read \(path): \(Self.errorText())")
        }
        let mode = UInt16(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else { throw DeviceKeyStoreError.readableByOthers(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DeviceKeyStoreError.system("cannot read \(path): \(Self.errorText())")
        }
        guard let stored = try? JSONDecoder().decode(StoredDeviceIdentity.self, from: data),
            stored.userID == user, let identity = stored.identity
        else { throw DeviceKeyStoreError.unreadable(path: path) }
        return identity
    }

    public func save(_ identity: DeviceIdentity) throws {
        if !FileManager.default.fileExists(atPath: directory) {
            guard
                (try? FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]))
                    != nil
            else { throw DeviceKeyStoreError.system("cannot create \(directory)") }
            chmod(directory, 0o700)  // the umask may have narrowed what was asked; never widened it
        }
        let path = path(for: identity.userID)
        let data: [UInt8]
        do {
            data = Array(try JSONEncoder().encode(StoredDeviceIdentity(identity)))
        } catch {
            throw DeviceKeyStoreError.system("cannot encode the identity")
        }
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else {
            throw DeviceKeyStoreError.system("cannot write \(temporary): \(Self.errorText())")
        }
        fchmod(descriptor, 0o600)  // a leftover temporary file may have had another mode
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0 else {
            unlink(temporary)
            throw DeviceKeyStoreError.system("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let text = Self.errorText()
            unlink(temporary)
            throw DeviceKeyStoreError.system("cannot replace \(path): \(text)")
        }
    }

    public func delete(for user: UserID) throws {
        let path = path(for: user)
        guard unlink(path) == 0 || errno == ENOENT else {
            throw DeviceKeyStoreError.system("cannot delete \(path): \(Self.errorText())")
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
