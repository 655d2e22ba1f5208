import Foundation
import SpotterE2E

/// The length and head of every chain this device has verified, so a chain the server shows later must
/// continue it (docs/encryption.md, "Devices": the server can only hide statements, and a client notices).
///
/// Held by an `EncryptedGroups`, and kept in the client database when it is given one, so the next launch
/// checks against it too; a chain first seen is taken as it is.
struct SeenChains: Sendable {
    private var heads: [String: (length: Int, head: String)]

    init(heads: [String: (length: Int, head: String)] = [:]) { self.heads = heads }

    /// The length and head last seen of `chain`.
    func head(of chain: ChainID) -> (length: Int, head: String)? { heads[chain.description] }

    /// Takes a verified chain as the newest seen, or refuses one that does not extend the last seen.
    mutating func accept(
        _ chain: String, length: Int, head: String, extends: (Int, String) -> Bool
    ) throws(EncryptedGroupsError) {
        if let seen = heads[chain], !extends(seen.length, seen.head) {
            throw .chainRewritten(chain: chain)
        }
        heads[chain] = (length, head)
    }

    mutating func accept(_ chain: VerifiedDeviceChain) throws(EncryptedGroupsError) {
        try accept(
            ChainID.device(user: chain.userID).description, length: chain.length, head: chain.head,
            extends: chain.extends)
    }

    mutating func accept(_ group: VerifiedGroup) throws(EncryptedGroupsError) {
        try accept(
            ChainID.group(group.groupID).description, length: group.length, head: group.head, extends: group.extends)
    }

    /// How long the chain was when last seen (0 when never).
    func length(of chain: ChainID) -> Int { heads[chain.description]?.length ?? 0 }
}
