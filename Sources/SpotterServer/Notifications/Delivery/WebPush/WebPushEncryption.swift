import Crypto
import Foundation
import SpotterModels

/// Encrypts a push message so only the subscribed browser can read it: the `aes128gcm` content coding of
/// [RFC 8188](https://www.rfc-editor.org/rfc/rfc8188) keyed as [RFC 8291](https://www.rfc-editor.org/rfc/rfc8291)
/// says, in a single record.
///
/// The push service relays the body but cannot read it. Each message gets a fresh ephemeral key pair and
/// salt, so two identical payloads never look alike on the wire.
///
/// ```swift
/// let body = try WebPushEncryption.encrypt(payload: Data(json.utf8), subscription: subscription)
/// ```
public enum WebPushEncryption {
    /// Why a payload could not be encrypted.
    public enum Error: Swift.Error, Equatable {
        /// Over ``maximumPayloadSize``: push services need only take a 4096-byte body (RFC 8030 §7.2).
        case payloadTooLarge(size: Int, limit: Int)
        /// The subscription's `p256dh` is not an uncompressed P-256 point or its `auth` is not 16 bytes.
        case invalidSubscriptionKeys
        /// The salt is not 16 bytes (RFC 8188 §2.1).
        case invalidSalt
    }

    /// The record size written in the header: the whole 4096-byte body a push service must accept.
    static let recordSize: UInt32 = 4096
    /// Salt (16) + rs (4) + idlen (1) + keyid (the 65-byte ephemeral public key): RFC 8291 §4.
    static let headerSize = 16 + 4 + 1 + 65
    /// The largest plaintext that fits a 4096-byte body: 4096 - 86 (header) - 16 (tag) - 1 (padding
    /// delimiter) = 3993, the figure of [RFC 8291 §4](https://www.rfc-editor.org/rfc/rfc8291#section-4).
    public static let maximumPayloadSize = Int(recordSize) - headerSize - 16 - 1

    /// The message body: `salt || rs || idlen || keyid || ciphertext || tag`.
    ///
    /// - Parameters:
    ///   - salt: 16 random bytes; fixed only to reproduce a known vector.
    ///   - serverKey: the ephemeral key for this one message (`as_private`), not the VAPID key; fixed only to
    ///     reproduce a known vector.
    public static func encrypt(
        payload: Data, subscription: WebPushSubscription, salt: Data = randomSalt(),
        serverKey: P256.KeyAgreement.PrivateKey = .init()
    ) throws -> Data {
        guard payload.count <= maximumPayloadSize else {
            throw Error.payloadTooLarge(size: payload.count, limit: maximumPayloadSize)
        }
        guard salt.count == 16 else { throw Error.invalidSalt }
        guard let uaPublicBytes = Base64URL.decode(subscription.p256dh),
            let uaPublic = try? P256.KeyAgreement.PublicKey(x963Representation: uaPublicBytes),
            let authSecret = Base64URL.decode(subscription.auth), authSecret.count == 16
        else { throw Error.invalidSubscriptionKeys }

        let asPublicBytes = serverKey.publicKey.x963Representation
        let keys = try contentKeys(
            sharedSecret: serverKey.sharedSecretFromKeyAgreement(with: uaPublic), authSecret: authSecret,
            uaPublic: uaPublic.x963Representation, asPublic: asPublicBytes, salt: salt)

        // One record, the last: the plaintext then the 0x02 delimiter and no padding (RFC 8188 §2).
        let sealed = try AES.GCM.seal(payload + [0x02], using: keys.key, nonce: keys.nonce)

        var body = Data(capacity: headerSize + payload.count + 17)
        body.append(salt)
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(asPublicBytes.count))
        body.append(asPublicBytes)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// The content-encryption key and nonce of RFC 8291 §3.3–3.4 and RFC 8188 §2.2–2.3. The receiving side
    /// derives the same from its private key and our public one; `uaPublic`/`asPublic` keep their roles.
    static func contentKeys(
        sharedSecret: SharedSecret, authSecret: Data, uaPublic: Data, asPublic: Data, salt: Data
    ) throws -> (key: SymmetricKey, nonce: AES.GCM.Nonce) {
        // IKM = HKDF(salt: auth_secret, ikm: ecdh_secret, info: "WebPush: info" || 0x00 || ua_public || as_public)
        let keyInfo = Data("WebPush: info".utf8) + [0x00] + uaPublic + asPublic
        let ikm = sharedSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0x00],
            outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0x00],
            outputByteCount: 12)
        // The first (and only) record's nonce is the derived nonce XOR 0: itself.
        return (cek, try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
    }

    /// 16 bytes from the system's secure random source.
    public static func randomSalt() -> Data {
        SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
    }
}
