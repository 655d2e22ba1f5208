// SpotterE2E composes swift-crypto's primitives (AES-256-GCM); no cryptography is written by hand here.
import Crypto
import Foundation

/// A post's body (its JSON: text, workout, children, media) sealed with the post's content key.
///
/// The bytes are the caller's JSON, sealed as given: the shape of `workout` and `media` belongs to the apps, and a
/// reader parses exactly what was authenticated. `aad` names the group and post, so a body moved to another post
/// fails to open. Wire form `nonce ‖ ct ‖ tag`.
///
/// ```swift
/// let sealed = try PostBodyCipher.seal(Data(#"{"v":1,"text":"5 km"}"#.utf8), with: contentKey, groupID: g, postID: p)
/// let json = try PostBodyCipher.open(sealed, with: contentKey, groupID: g, postID: p)
/// ```
public enum PostBodyCipher {
    public static func seal(
        _ body: some DataProtocol, with contentKey: ContentKey, groupID: UUID, postID: UUID
    )
        throws -> Data
    {
        try SealedBytes.seal(body, key: contentKey.key, aad: Context.postAAD(groupID: groupID, postID: postID))
    }

    public static func open(
        _ sealed: some DataProtocol, with contentKey: ContentKey, groupID: UUID, postID: UUID
    )
        throws -> Data
    {
        try SealedBytes.open(sealed, key: contentKey.key, aad: Context.postAAD(groupID: groupID, postID: postID))
    }
}
