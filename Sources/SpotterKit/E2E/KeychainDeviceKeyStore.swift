#if canImport(Security)
import Foundation
import Security
import SpotterModels

/// Keeps each person's device identity in the Keychain as one generic password item that stays on this
/// device: readable only while the device is unlocked (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`), never
/// synchronised to iCloud nor restored onto another device from a backup, so a device's keys are this device's.
///
/// ```swift
/// let groups = EncryptedGroups(client: client, store: KeychainDeviceKeyStore())
/// ```
public struct KeychainDeviceKeyStore: DeviceKeyStore, CustomStringConvertible {
    public let service: String

    public init(service: String = "spotter.e2e-device") { self.service = service }

    public var description: String { "KeychainDeviceKeyStore(\(service))" }

    private func baseQuery(for user: UserID) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: user.description, kSecAttrSynchronizable as String: false,
        ]
    }

    public func load(for user: UserID) throws -> DeviceIdentity? {
        var query = baseQuery(for: user)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else {
            throw DeviceKeyStoreError.system("Keychain status \(status)")
        }
        guard let stored = try? JSONDecoder().decode(StoredDeviceIdentity.self, from: data),
            stored.userID == user, let identity = stored.identity
        else { throw DeviceKeyStoreError.unreadable(path: "Keychain item \(service)/\(user)") }
        return identity
    }

    public func save(_ identity: DeviceIdentity) throws {
        try delete(for: identity.userID)
        var item = baseQuery(for: identity.userID)
        do {
            item[kSecValueData as String] = try JSONEncoder().encode(StoredDeviceIdentity(identity))
        } catch {
            throw DeviceKeyStoreError.system("cannot encode the identity")
        }
        item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw DeviceKeyStoreError.system("Keychain status \(status)") }
    }

    public func delete(for user: UserID) throws {
        let status = SecItemDelete(baseQuery(for: user) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw DeviceKeyStoreError.system("Keychain status \(status)")
        }
    }
}
#endif
