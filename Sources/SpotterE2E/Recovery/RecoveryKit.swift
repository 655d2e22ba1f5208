// SpotterE2E composes swift-crypto's primitives (HKDF-SHA256, AES-256-GCM); no cryptography is written by
// hand here.
import Crypto
import Foundation
import SpotterModels

/// The recovery device's private keys, sealed under the 24 words, kept by the server (which never sees the
/// words), so losing every device is not losing every photo.
///
/// Plaintext: `{"hpke_private", "hpke_public", "signing_private", "signing_public"}` (32-byte scalars, 65-byte
/// points, base64url). Key: HKDF-SHA256(ikm: the 32 bytes, salt: empty, info: `"spotter-e2e-v1 recovery"`).
/// AES-256-GCM, random nonce, `aad` = `"spotter-e2e-v1 recovery-kit\n" ‖ user id`; wire form `nonce ‖ ct ‖ tag`.
///
/// ```swift
/// let recoveryKeys = DeviceKeys()
/// let kit = try RecoveryKit.seal(recoveryKeys, secret: secret, userID: me)
/// let keysAgain = try RecoveryKit.open(kit, secret: RecoverySecret(words: typed), userID: me)
/// ```
public enum RecoveryKit {
    public static func seal(_ keys: DeviceKeys, secret: RecoverySecret, userID: UUID) throws -> Data {
        try SealedBytes.seal(
            try JSONEncoder().encode(KitJSON(keys)), key: key(secret), aad: Context.recoveryKitAAD(userID: userID))
    }

    /// The recovery device's keys; `E2EError.authenticationFailed` for other words, another user's kit or a
    /// changed kit, `invalidKey` when a public half does not match its private half.
    public static func open(_ kit: some DataProtocol, secret: RecoverySecret, userID: UUID) throws -> DeviceKeys {
        let json = try SealedBytes.open(kit, key: key(secret), aad: Context.recoveryKitAAD(userID: userID))
        let decoded: KitJSON
        do {
            decoded = try JSONDecoder().decode(KitJSON.self, from: json)
        } catch {
            throw E2EError.malformed("the recovery kit's JSON: \(error)")
        }
        let keys = try DeviceKeys(hpkePrivate: decoded.hpkePrivate, signingPrivate: decoded.signingPrivate)
        guard keys.hpkePublic == decoded.hpkePublic, keys.signingPublic == decoded.signingPublic else {
            throw E2EError.invalidKey("the kit's public keys are not its private keys'")
        }
        return keys
    }

    /// The kit's plaintext JSON, for fixtures and other implementations' tests.
    public static func json(_ keys: DeviceKeys) throws -> Data { try JSONEncoder().encode(KitJSON(keys)) }

    static func key(_ secret: RecoverySecret) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret.entropy), salt: Data(), info: Context.recoveryInfo,
            outputByteCount: 32)
    }

    struct KitJSON: Codable {
        var hpkePrivate: Data
        var hpkePublic: Data
        var signingPrivate: Data
        var signingPublic: Data

        init(_ keys: DeviceKeys) {
            hpkePrivate = keys.hpkePrivateRaw
            hpkePublic = keys.hpkePublic
            signingPrivate = keys.signingPrivateRaw
            signingPublic = keys.signingPublic
        }

        enum CodingKeys: String, CodingKey {
            case hpkePrivate = "hpke_private"
            case hpkePublic = "hpke_public"
            case signingPrivate = "signing_private"
            case signingPublic = "signing_public"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hpkePrivate = try WireCoding.decodeBytes(container, .hpkePrivate)
            hpkePublic = try WireCoding.decodeBytes(container, .hpkePublic)
            signingPrivate = try WireCoding.decodeBytes(container, .signingPrivate)
            signingPublic = try WireCoding.decodeBytes(container, .signingPublic)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Base64URL.encode(hpkePrivate), forKey: .hpkePrivate)
            try container.encode(Base64URL.encode(hpkePublic), forKey: .hpkePublic)
            try container.encode(Base64URL.encode(signingPrivate), forKey: .signingPrivate)
            try container.encode(Base64URL.encode(signingPublic), forKey: .signingPublic)
        }
    }
}
