// SpotterE2E composes swift-crypto's primitives (HPKE, AES-GCM, HKDF, ECDSA P-256, SHA-2); no cryptography is
// written by hand here.

/// Why an encrypted value, key or wire form was refused.
///
/// The cases say what a caller can act on: `authenticationFailed` covers a wrong key, a wrong context (another
/// group, epoch, item or user) and changed bytes alike, because AES-GCM and HPKE cannot tell them apart, and a
/// client must refuse all of them the same way.
public enum E2EError: Error, Equatable, Sendable {
    /// A public key that is not an uncompressed P-256 point (65 bytes, `0x04 ‖ x ‖ y`, on the curve).
    case invalidPublicKey
    /// A private key that is not a 32-byte P-256 scalar in range.
    case invalidPrivateKey
    /// A key, or a recovery kit's key pair, of the wrong length or whose halves do not match.
    case invalidKey(String)
    /// A wire form of the wrong length or shape, before any decryption was tried.
    case malformed(String)
    /// Decryption or HPKE opening failed: wrong key, wrong context, or changed bytes.
    case authenticationFailed
}
