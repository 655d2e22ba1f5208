import Foundation

#if canImport(Security)
import Security
#endif

/// The tokens of a signed-in session, as a `TokenStore` keeps them.
public struct SessionTokens: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String

    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// Where a client keeps its tokens between launches: the Keychain on Apple platforms
/// (`KeychainTokenStore`), a file only its owner can read on Linux (`FileTokenStore`).
public protocol TokenStore: Sendable {
    func load() async throws -> SessionTokens?
    func save(_ tokens: SessionTokens) async throws
    func clear() async throws
}

/// Keeps tokens for the life of the process only: for tests and for tools that sign in each run.
public actor MemoryTokenStore: TokenStore {
    private var tokens: SessionTokens?

    public init(_ tokens: SessionTokens? = nil) { self.tokens = tokens }

    public func load() -> SessionTokens? { tokens }
    public func save(_ tokens: SessionTokens) { self.tokens = tokens }
    public func clear() { tokens = nil }
}

/// Keeps tokens in a JSON file created with mode 0600 (owner read/write only), replaced atomically on save.
///
/// ```swift
/// let store = FileTokenStore(path: NSHomeDirectory() + "/.config/spotter/session.json")
/// ```
public actor FileTokenStore: TokenStore {
    public let path: String

    public init(path: String) { self.path = path }

    public func load() throws -> SessionTokens? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try SpotterClient.decoder.decode(SessionTokens.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    public func save(_ tokens: SessionTokens) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Written to a temporary file opened with mode 0600 from the start (not chmod-ed after writing), so the
        // tokens are never readable by others, even briefly.
        let temporary = path + ".tmp"
        let data = try SpotterClient.encoder.encode(tokens)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        fchmod(descriptor, 0o600)  // in case a leftover temporary file had another mode
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count else { throw POSIXError(.EIO) }
        // rename(2) replaces the old file in one step, so a reader sees the old tokens or the new, never neither.
        guard rename(temporary, path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    public func clear() throws {
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }
}

#if canImport(Security)
/// Keeps tokens in the Keychain as one generic password item, readable after the first unlock.
public actor KeychainTokenStore: TokenStore {
    public let service: String
    public let account: String

    public init(service: String = "spotter", account: String = "session") {
        self.service = service
        self.account = account
    }

    private var query: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
    }

    public func load() throws -> SessionTokens? {
        var query = self.query
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else { throw KeychainError(status: status) }
        return try SpotterClient.decoder.decode(SessionTokens.self, from: data)
    }

    public func save(_ tokens: SessionTokens) throws {
        let data = try SpotterClient.encoder.encode(tokens)
        let update = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if update == errSecSuccess { return }
        guard update == errSecItemNotFound else { throw KeychainError(status: update) }
        var item = query
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else { throw KeychainError(status: added) }
    }

    public func clear() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }

    public struct KeychainError: Error {
        public let status: OSStatus
    }
}
#endif
