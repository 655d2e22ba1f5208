import Foundation
import SpotterE2E

/// The length and head of every chain this device has verified, so a chain the server shows later must
/// continue it (docs/encryption.md, "Devices": the server can only hide statements, and a client notices).
///
/// Kept in memory for the life of an `EncryptedGroups`; a chain first seen is taken as it is.
struct SeenChains: Sendable {
    private var heads: [String: (length: Int, head: String)] = [:]

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
