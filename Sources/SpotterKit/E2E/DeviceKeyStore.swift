import Foundation
import SpotterE2E
import SpotterModels

/// This device in a person's device chain: its id and name, and its two private keys (HPKE and signing).
///
/// The keys never leave the device: nothing sends them, and `description` (what logs and string
/// interpolation show) leaves them out.
public struct DeviceIdentity: Sendable, CustomStringConvertible {
    public let userID: UserID
    public let deviceID: UUID
    public let name: String
    public let keys: DeviceKeys

    public init(userID: UserID, deviceID: UUID, name: String, keys: DeviceKeys) {
        self.userID = userID
        self.deviceID = deviceID
        self.name = name
        self.keys = keys
    }

    /// What an `add_device` statement carries: the public halves only.
    public var registration: SpotterE2E.DeviceRegistration { keys.registration(id: deviceID, name: name) }

    /// Signs statements as this device.
    public var signer: StatementSigner { StatementSigner(deviceID: deviceID, key: keys.signing) }

    public var description: String {
        "DeviceIdentity(\(name), device \(UUIDText.format(deviceID)), user \(userID), keys redacted)"
    }
}

/// Where a device keeps its private keys, one identity per person signed in on it: the Keychain on Apple
/// platforms (`KeychainDeviceKeyStore`), a 0600 file on Linux (`FileDeviceKeyStore`).
///
/// ```swift
/// let store = FileDeviceKeyStore(directory: NSHomeDirectory() + "/.config/spotter/e2e")
/// let groups = EncryptedGroups(client: client, store: store)
/// try await groups.registerDevice(name: "Ana's laptop")
/// ```
public protocol DeviceKeyStore: Sendable {
    /// This device's identity for `user`, or nil when it has none.
    func load(for user: UserID) async throws -> DeviceIdentity?
    /// Stores the identity, replacing any other of the same person.
    func save(_ identity: DeviceIdentity) async throws
    /// Forgets the person's identity; nothing happens when there is none.
    func delete(for user: UserID) async throws
}

/// Why a device key store could not do what was asked. Never carries a key, nor a file's contents.
public enum DeviceKeyStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key file can be read by others than its owner: its keys may be known, so they are not used.
    case readableByOthers(path: String, mode: UInt16)
    /// The file or item does not hold a device identity.
    case unreadable(path: String)
    /// The operating system refused (errno or a Keychain status).
    case system(String)

    public var description: String {
        switch self {
        case .readableByOthers(let path, let mode):
            "\(path) can be read by others (mode \(String(mode, radix: 8))); its keys may be known. "
                + "Revoke this device from another one and register it again."
        case .unreadable(let path): "\(path) does not hold a device's keys."
        case .system(let detail): "the device key store failed: \(detail)"
        }
    }
}

/// Keeps identities for the life of the process only: for previews and tests.
public actor MemoryDeviceKeyStore: DeviceKeyStore {
    private var identities: [UserID: DeviceIdentity] = [:]

    public init() {}

    public func load(for user: UserID) -> DeviceIdentity? { identities[user] }
    public func save(_ identity: DeviceIdentity) { identities[identity.userID] = identity }
    public func delete(for user: UserID) { identities[user] = nil }
}

/// The stored form, shared by the file and Keychain stores: ids, name, and the 32-byte private scalars.
struct StoredDeviceIdentity: Codable {
    var v = 1
    var userID: UserID
    var deviceID: UUID
    var name: String
    var hpkePrivate: String
    var signingPrivate: String

    init(_ identity: DeviceIdentity) {
        userID = identity.userID
        deviceID = identity.deviceID
        name = identity.name
        hpkePrivate = Base64URL.encode(identity.keys.hpkePrivateRaw)
        signingPrivate = Base64URL.encode(identity.keys.signingPrivateRaw)
    }

    var identity: DeviceIdentity? {
        guard v == 1, let hpke = Base64URL.decode(hpkePrivate), let signing = Base64URL.decode(signingPrivate),
            let keys = try? DeviceKeys(hpkePrivate: hpke, signingPrivate: signing)
        else { return nil }
        return DeviceIdentity(userID: userID, deviceID: deviceID, name: name, keys: keys)
    }

    enum CodingKeys: String, CodingKey {
        case v, name
        case userID = "user_id"
        case deviceID = "device_id"
        case hpkePrivate = "hpke_private"
        case signingPrivate = "signing_private"
    }
}
