// SpotterE2E composes swift-crypto's primitives (AES-256-GCM); no cryptography is written by hand here.
import Crypto
import Foundation

/// A post's or blob's content key wrapped by its epoch's wrapping key (AES-256-GCM, random nonce).
///
/// The `aad` names the group, epoch and item, so a wrapped key copied onto another item, or replayed into another
/// epoch, fails to open. Wire form `nonce ‖ ct ‖ tag`, 60 bytes.
///
/// ```swift
/// let contentKey = ContentKey()
/// let wrapped = try ContentKeyWrap.seal(contentKey, with: epochKey, groupID: group, epoch: 3, itemID: post)
/// ```
public enum ContentKeyWrap {
    public static let wireCount = 60

    public static func seal(
        _ contentKey: ContentKey, with epochKey: EpochKey, groupID: UUID, epoch: UInt32, itemID: UUID
    )
        throws -> Data
    {
        try SealedBytes.seal(
            contentKey.rawValue, key: epochKey.wrappingKey,
            aad: Context.contentKeyAAD(groupID: groupID, epoch: epoch, itemID: itemID))
    }

    public static func open(
        _ wrapped: some DataProtocol, with epochKey: EpochKey, groupID: UUID, epoch: UInt32, itemID: UUID
    ) throws -> ContentKey {
        let raw = try SealedBytes.open(
            wrapped, key: epochKey.wrappingKey,
            aad: Context.contentKeyAAD(groupID: groupID, epoch: epoch, itemID: itemID),
            expectedPlaintextCount: 32)
        return try ContentKey(rawValue: raw)
    }
}
