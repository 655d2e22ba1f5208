#if canImport(Security)
import Foundation
import Security
import SpotterNostr

/// Keeps the secret key in the Keychain as one generic password item that stays on this device: readable
/// only while the device is unlocked (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`), never synchronised to
/// iCloud nor restored onto another device from a backup.
///
/// ```swift
/// let signer = NostrSigner(store: KeychainNostrKeyStore())
/// ```
public struct KeychainNostrKeyStore: NostrKeyStore, CustomStringConvertible {
    public let service: String
    public let account: String

    public init(service: String = "spotter.nostr", account: String = "secret-key") {
        self.service = service
        self.account = account
    }

    public var description: String { "KeychainNostrKeyStore(\(service), \(account))" }

    private var query: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecAttrSynchronizable as String: false,
        ]
    }

    public func load() throws -> NostrSecretKey? {
        var query = self.query
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else {
            throw NostrKeyStoreError.system("Keychain status \(status)")
        }
        guard data.count == 32, let key = try? NostrSecretKey(bytes: Array(data)) else {
            throw NostrKeyStoreError.unreadable(path: "Keychain item \(service)/\(account)")
        }
        return key
    }

    public func save(_ key: NostrSecretKey) throws {
        try delete()
        var item = query
        item[kSecValueData as String] = Data(key.rawBytes)
        item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw NostrKeyStoreError.system("Keychain status \(status)") }
    }

    public func delete() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw NostrKeyStoreError.system("Keychain status \(status)")
        }
    }
}
#endif
