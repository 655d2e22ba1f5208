// SpotterE2E composes swift-crypto's primitives (HPKE, RFC 9180); no cryptography is written by hand here.
import Crypto
import Foundation

/// An epoch key wrapped to one device with HPKE (RFC 9180, https://www.rfc-editor.org/rfc/rfc9180) base mode,
/// single shot: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM.
///
/// The wire form is `enc ‖ ct`: the 65-byte encapsulated key, then the 32-byte epoch key sealed with its 16-byte
/// tag (113 bytes). `info` binds it to the group and epoch, so a wrap moved to another group or epoch fails.
///
/// ```swift
/// let wrapped = try EpochKeyWrap.seal(epochKey, to: device.hpkePublic, groupID: group, epoch: 3)
/// let opened = try EpochKeyWrap.open(wrapped, with: myKeys.hpke, groupID: group, epoch: 3)
/// ```
public enum EpochKeyWrap {
    /// The ciphersuite of docs/encryption.md: KEM `0x0010`, KDF `0x0001`, AEAD `0x0001`.
    public static let ciphersuite = HPKE.Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)
    /// `enc ‖ ct`: 65 + 32 + 16.
    public static let wireCount = 113

    /// Seals `epochKey` to the device whose HPKE public key is `publicKey`.
    public static func seal(
        _ epochKey: EpochKey, to publicKey: P256.KeyAgreement.PublicKey, groupID: UUID, epoch: UInt32
    ) throws -> Data {
        var sender = try HPKE.Sender(
            recipientKey: publicKey, ciphersuite: ciphersuite,
            info: Context.epochKeyInfo(groupID: groupID, epoch: epoch))
        let sealed = try sender.seal(epochKey.rawValue, authenticating: Data())
        return sender.encapsulatedKey + sealed
    }

    /// Wraps `epochKey` to every device given (a group's members' live devices, as their verified chains say),
    /// by device id.
    public static func seal(
        _ epochKey: EpochKey, toEach devices: [DeviceRegistration], groupID: UUID, epoch: UInt32
    )
        throws -> [UUID: Data]
    {
        var wrapped: [UUID: Data] = [:]
        for device in devices {
            wrapped[device.id] = try seal(epochKey, to: device.hpkePublic, groupID: groupID, epoch: epoch)
        }
        return wrapped
    }

    /// Opens a wrap with this device's HPKE private key; `E2EError.authenticationFailed` when it was wrapped to
    /// another device, group or epoch, or changed.
    public static func open(
        _ wrapped: some DataProtocol, with privateKey: P256.KeyAgreement.PrivateKey, groupID: UUID, epoch: UInt32
    ) throws -> EpochKey {
        guard wrapped.count == wireCount else {
            throw E2EError.malformed("a wrapped epoch key is \(wireCount) bytes, not \(wrapped.count)")
        }
        let bytes = Data(wrapped)
        let enc = bytes.prefix(65)
        let ciphertext = bytes.dropFirst(65)
        do {
            var recipient = try HPKE.Recipient(
                privateKey: privateKey, ciphersuite: ciphersuite,
                info: Context.epochKeyInfo(groupID: groupID, epoch: epoch), encapsulatedKey: Data(enc))
            return try EpochKey(rawValue: try recipient.open(ciphertext, authenticating: Data()))
        } catch {
            throw E2EError.authenticationFailed
        }
    }
}
