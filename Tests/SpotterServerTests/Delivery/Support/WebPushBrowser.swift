import Crypto
import Foundation
import SpotterModels
import SpotterServer

/// The browser's side of a push subscription: the key pair and auth secret it keeps, and the decryption it
/// does when a message arrives ([RFC 8291 §3.4](https://www.rfc-editor.org/rfc/rfc8291#section-3.4)).
///
/// Written from the RFC's HMAC formulas rather than with the server's HKDF calls, so a mistake in one is not
/// mirrored in the other.
struct WebPushBrowser: Sendable {
    let privateKey: P256.KeyAgreement.PrivateKey
    let authSecret: Data

    init(
        privateKey: P256.KeyAgreement.PrivateKey = .init(),
        authSecret: Data = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
    ) {
        self.privateKey = privateKey
        self.authSecret = authSecret
    }

    var publicKey: Data { privateKey.publicKey.x963Representation }

    func subscription(endpoint: String) -> WebPushSubscription {
        WebPushSubscription(
            endpoint: URL(string: endpoint)!, p256dh: Base64URL.encode(publicKey), auth: Base64URL.encode(authSecret))
    }

    struct Unreadable: Error, CustomStringConvertible { let description: String }

    /// The plaintext of an `aes128gcm` body holding a single record.
    func decrypt(_ body: Data) throws -> Data {
        let bytes = [UInt8](body)
        guard bytes.count > 21 else { throw Unreadable(description: "shorter than a header") }
        let salt = Data(bytes[0..<16])
        let recordSize = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(bytes[20])
        guard idLength == 65, bytes.count >= 21 + idLength + 17 else { throw Unreadable(description: "bad keyid") }
        let asPublic = Data(bytes[21..<(21 + idLength)])
        let record = Data(bytes[(21 + idLength)...])
        guard record.count <= recordSize else { throw Unreadable(description: "more than one record") }

        let sender = try P256.KeyAgreement.PublicKey(x963Representation: asPublic)
        let ecdhSecret = try privateKey.sharedSecretFromKeyAgreement(with: sender).withUnsafeBytes { Data($0) }
        // PRK_key = HMAC(auth_secret, ecdh_secret); IKM = HMAC(PRK_key, key_info || 0x01)
        let prkKey = hmac(key: authSecret, ecdhSecret)
        let keyInfo = Data("WebPush: info".utf8) + [0] + publicKey + asPublic
        let ikm = hmac(key: prkKey, keyInfo + [1])
        // PRK = HMAC(salt, IKM); CEK and NONCE are the first bytes of HMAC(PRK, info || 0x01)
        let prk = hmac(key: salt, ikm)
        let cek = hmac(key: prk, Data("Content-Encoding: aes128gcm".utf8) + [0, 1]).prefix(16)
        let nonce = hmac(key: prk, Data("Content-Encoding: nonce".utf8) + [0, 1]).prefix(12)

        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce), ciphertext: record.dropLast(16), tag: record.suffix(16))
        let padded = [UInt8](try AES.GCM.open(box, using: SymmetricKey(data: cek)))
        // RFC 8188 §2: the last record ends with 0x02 then any number of zeros.
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 0x02 else {
            throw Unreadable(description: "no last-record delimiter")
        }
        return Data(padded[..<delimiter])
    }

    private func hmac(key: Data, _ message: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
