// SpotterE2E composes swift-crypto's primitives; no cryptography is written by hand here.
import Foundation
import SpotterModels

/// The context strings of docs/encryption.md, byte for byte, in one place.
///
/// Each binds a key or a ciphertext to where it belongs (a group, an epoch, an item, a user), so a value copied
/// to another place fails to open. Ids are lowercase UUID text; epochs are decimal; `‖` is concatenation.
enum Context {
    static let version = "spotter-e2e-v1"

    /// HPKE `info` for an epoch key: `"spotter-e2e-v1 epoch-key\n" ‖ group id ‖ "\n" ‖ decimal epoch`.
    static func epochKeyInfo(groupID: UUID, epoch: UInt32) -> Data {
        Data("\(version) epoch-key\n\(UUIDText.format(groupID))\n\(epoch)".utf8)
    }

    /// HKDF `info` of the wrapping key derived from an epoch key.
    static let wrapInfo = Data("\(version) wrap".utf8)

    /// AES-GCM `aad` of a wrapped content key: `… content-key\n" ‖ group ‖ "\n" ‖ epoch ‖ "\n" ‖ item id`.
    static func contentKeyAAD(groupID: UUID, epoch: UInt32, itemID: UUID) -> Data {
        Data("\(version) content-key\n\(UUIDText.format(groupID))\n\(epoch)\n\(UUIDText.format(itemID))".utf8)
    }

    /// AES-GCM `aad` of a post body: `"spotter-e2e-v1 post\n" ‖ group id ‖ "\n" ‖ post id`.
    static func postAAD(groupID: UUID, postID: UUID) -> Data {
        Data("\(version) post\n\(UUIDText.format(groupID))\n\(UUIDText.format(postID))".utf8)
    }

    /// What a statement's signature covers before the body's bytes.
    static let statementPrefix = Data("\(version) statement\n".utf8)

    /// SHA-512's input before the signing keys: `"spotter-e2e-v1 safety\n" ‖ user id ‖ "\n"`.
    static func safetyPrefix(userID: UUID) -> Data {
        Data("\(version) safety\n\(UUIDText.format(userID))\n".utf8)
    }

    /// SHA-256's input before a new device's two public keys, for the code it shows to be approved:
    /// `"spotter-e2e-v1 device-code\n" ‖ user id ‖ "\n" ‖ device id ‖ "\n"`.
    static func deviceCodePrefix(userID: UUID, deviceID: UUID) -> Data {
        Data("\(version) device-code\n\(UUIDText.format(userID))\n\(UUIDText.format(deviceID))\n".utf8)
    }

    /// HKDF `info` of the key that seals a recovery kit.
    static let recoveryInfo = Data("\(version) recovery".utf8)

    /// AES-GCM `aad` of a recovery kit: `"spotter-e2e-v1 recovery-kit\n" ‖ user id`.
    static func recoveryKitAAD(userID: UUID) -> Data {
        Data("\(version) recovery-kit\n\(UUIDText.format(userID))".utf8)
    }
}
