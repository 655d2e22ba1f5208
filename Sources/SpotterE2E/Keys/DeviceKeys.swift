// SpotterE2E composes swift-crypto's primitives (P-256 key agreement and signing); no cryptography is written
// by hand here.
import Crypto
import Foundation

/// A device's two P-256 key pairs: one to open epoch keys wrapped to it (HPKE), one to sign statements.
///
/// Two pairs, not one, so a key never serves both Diffie-Hellman and ECDSA. The private halves stay on the
/// device (Keychain, a 0600 file); `rawRepresentation` (32-byte scalars) is how they are stored and how a
/// recovery kit carries them.
///
/// ```swift
/// let keys = DeviceKeys()
/// let device = keys.registration(id: UUID(), name: "Lou's iPhone")
/// ```
public struct DeviceKeys: Sendable {
    public let hpke: P256.KeyAgreement.PrivateKey
    public let signing: P256.Signing.PrivateKey

    /// Two new random key pairs.
    public init() {
        hpke = P256.KeyAgreement.PrivateKey()
        signing = P256.Signing.PrivateKey()
    }

    public init(hpke: P256.KeyAgreement.PrivateKey, signing: P256.Signing.PrivateKey) {
        self.hpke = hpke
        self.signing = signing
    }

    /// The key pairs from their 32-byte private scalars.
    public init(hpkePrivate: some DataProtocol, signingPrivate: some DataProtocol) throws {
        guard hpkePrivate.count == 32, signingPrivate.count == 32 else { throw E2EError.invalidPrivateKey }
        do {
            hpke = try P256.KeyAgreement.PrivateKey(rawRepresentation: Data(hpkePrivate))
            signing = try P256.Signing.PrivateKey(rawRepresentation: Data(signingPrivate))
        } catch {
            throw E2EError.invalidPrivateKey
        }
    }

    /// 32-byte scalars, for the device's own storage.
    public var hpkePrivateRaw: Data { hpke.rawRepresentation }
    public var signingPrivateRaw: Data { signing.rawRepresentation }

    /// The public halves as registered: uncompressed SEC1 points, 65 bytes.
    public var hpkePublic: Data { hpke.publicKey.x963Representation }
    public var signingPublic: Data { signing.publicKey.x963Representation }

    /// What the server and other members see of this device.
    public func registration(id: UUID, name: String, recovery: Bool = false) -> DeviceRegistration {
        DeviceRegistration(
            id: id, name: name, hpkePublic: hpke.publicKey, signingPublic: signing.publicKey, recovery: recovery)
    }
}
