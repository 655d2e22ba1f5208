// SpotterE2E composes swift-crypto's primitives (HKDF-SHA256, random keys); no cryptography is written by hand
// here.
import Crypto
import Foundation

/// A group's key for one epoch: 32 random bytes, wrapped to every live device of every member.
///
/// A new epoch follows every removal of a member and every revocation of a member's device, so what is posted
/// after it is closed to them.
///
/// ```swift
/// let epochKey = EpochKey()
/// let wrapped = try EpochKeyWrap.seal(epochKey, to: device.hpkePublic, groupID: group, epoch: 0)
/// ```
public struct EpochKey: Sendable {
    public let key: SymmetricKey

    /// A new random epoch key.
    public init() { key = SymmetricKey(size: .bits256) }

    /// The key from its 32 bytes (an opened wrap, a fixture).
    public init(rawValue: some DataProtocol) throws {
        guard rawValue.count == 32 else { throw E2EError.invalidKey("an epoch key is 32 bytes, not \(rawValue.count)") }
        key = SymmetricKey(data: Data(rawValue))
    }

    public var rawValue: Data { key.withUnsafeBytes { Data($0) } }

    /// HKDF-SHA256(ikm: the epoch key, salt: empty, info: `"spotter-e2e-v1 wrap"`, 32 bytes): the key that wraps
    /// this epoch's content keys. Derived rather than used directly so the epoch key has a single use (HPKE's
    /// plaintext) and the wrapping key another.
    public var wrappingKey: SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: Data(), info: Context.wrapInfo, outputByteCount: 32)
    }
}

/// The key of one post or one blob: 32 random bytes, wrapped by its epoch's wrapping key.
///
/// One key per item lets a client hand out or re-wrap a single item without touching the rest.
public struct ContentKey: Sendable {
    public let key: SymmetricKey

    /// A new random content key.
    public init() { key = SymmetricKey(size: .bits256) }

    /// The key from its 32 bytes.
    public init(rawValue: some DataProtocol) throws {
        guard rawValue.count == 32 else {
            throw E2EError.invalidKey("a content key is 32 bytes, not \(rawValue.count)")
        }
        key = SymmetricKey(data: Data(rawValue))
    }

    public var rawValue: Data { key.withUnsafeBytes { Data($0) } }
}

/// AES-256-GCM with a random nonce and the wire form `nonce ‖ ct ‖ tag`, shared by content keys, post bodies and
/// recovery kits.
enum SealedBytes {
    static let overhead = 12 + 16

    static func seal(_ plaintext: some DataProtocol, key: SymmetricKey, aad: Data) throws -> Data {
        // `combined` is non-nil for the 12-byte nonces AES.GCM makes itself.
        try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(), authenticating: aad).combined!
    }

    /// Opens `nonce ‖ ct ‖ tag`; `expectedPlaintextCount` refuses a wire form of any other length first.
    static func open(
        _ sealed: some DataProtocol, key: SymmetricKey, aad: Data, expectedPlaintextCount: Int? = nil
    )
        throws -> Data
    {
        if let expected = expectedPlaintextCount, sealed.count != expected + overhead {
            throw E2EError.malformed("expected \(expected + overhead) bytes, got \(sealed.count)")
        }
        guard sealed.count >= overhead else { throw E2EError.malformed("shorter than nonce and tag") }
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: aad)
        } catch {
            throw E2EError.authenticationFailed
        }
    }
}
