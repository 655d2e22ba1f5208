// SpotterE2E composes swift-crypto's primitives (ECDSA P-256 verification); no cryptography is written by hand
// here.
import Crypto
import Foundation
import SpotterModels

/// A signed deletion of an item of an encrypted group: `{v: 1, kind: "delete", group, item, at}`, signed like a
/// chain statement by a live device of the item's author. The server deletes the ciphertext on it; clients that
/// see it purge what they cached. Signed, so a server cannot make a member's devices forget a post.
public struct Tombstone: Sendable, Equatable, Codable {
    public var group: UUID
    public var item: UUID
    /// Seconds since 1970, by the signer's clock.
    public var at: Int64

    public init(group: UUID, item: UUID, at: Int64) {
        self.group = group
        self.item = item
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case v, kind, group, item, at
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(Int.self, forKey: .v) == 1,
            try container.decode(String.self, forKey: .kind) == "delete"
        else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "not a v1 delete")
        }
        group = try WireCoding.decodeUUID(container, .group)
        item = try WireCoding.decodeUUID(container, .item)
        at = try container.decode(Int64.self, forKey: .at)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .v)
        try container.encode("delete", forKey: .kind)
        try container.encode(UUIDText.format(group), forKey: .group)
        try container.encode(UUIDText.format(item), forKey: .item)
        try container.encode(at, forKey: .at)
    }

    /// Signs this tombstone with a device's signing key.
    public func signed(by signer: StatementSigner) throws -> SignedStatement {
        try SignedStatement(signing: try StatementBody.encoder.encode(self), by: signer.deviceID, with: signer.key)
    }

    /// The tombstone a statement carries, when `key` signed it; refused (nil) when the signature is not
    /// `key`'s, or the body is not a v1 `delete` read the same way by every client (no repeated or escaped key).
    public static func verified(_ statement: SignedStatement, by key: P256.Signing.PublicKey) -> Tombstone? {
        guard statement.isSigned(by: key), DuplicateKeys.first(in: statement.body) == nil else { return nil }
        return try? JSONDecoder().decode(Tombstone.self, from: statement.body)
    }
}
