import Foundation
import SpotterModels

/// Keeps each person's device identity as JSON in `device-<user id>.json`, mode 0600, inside a folder the
/// caller gives, made mode 0700: for Linux, the terminal client and tests (`OwnerOnlyFile`). A file others can
/// read is refused (`DeviceKeyStoreError.readableByOthers`).
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
        guard let data = try Self.mapped(path, { () throws(OwnerOnlyFile.Failure) in try OwnerOnlyFile.read(path) })
        else { return nil }
        guard let stored = try? JSONDecoder().decode(StoredDeviceIdentity.self, from: data),
            stored.userID == user, let identity = stored.identity
        else { throw DeviceKeyStoreError.unreadable(path: path) }
        return identity
    }

    public func save(_ identity: DeviceIdentity) throws {
        let path = path(for: identity.userID)
        let data: Data
        do {
            data = try JSONEncoder().encode(StoredDeviceIdentity(identity))
        } catch {
            throw DeviceKeyStoreError.system("cannot encode the identity")
        }
        try Self.mapped(path) { () throws(OwnerOnlyFile.Failure) in try OwnerOnlyFile.replace(path, with: data) }
    }

    public func delete(for user: UserID) throws {
        let path = path(for: user)
        try Self.mapped(path) { () throws(OwnerOnlyFile.Failure) in try OwnerOnlyFile.delete(path) }
    }

    /// The file's failures in this store's words.
    private static func mapped<T>(_ path: String, _ body: () throws(OwnerOnlyFile.Failure) -> T) throws -> T {
        do { return try body() } catch {
            switch error {
            case .readableByOthers(let mode): throw DeviceKeyStoreError.readableByOthers(path: path, mode: mode)
            case .system(let detail): throw DeviceKeyStoreError.system(detail)
            }
        }
    }
}
