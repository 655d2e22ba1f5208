// SpotterE2E composes swift-crypto's primitives (ECDSA P-256 verification); no cryptography is written by hand
// here.
import Foundation

/// A member of a verified group and their role.
public struct GroupMember: Sendable, Equatable {
    public let userID: UUID
    public let role: GroupRole

    public init(userID: UUID, role: GroupRole) {
        self.userID = userID
        self.role = role
    }
}

/// A group chain, every statement checked: who is in the group now, with which role.
public struct VerifiedGroup: Sendable, Equatable {
    public let groupID: UUID
    /// In the order they (last) joined; the owner first until a hand-over.
    public let members: [GroupMember]
    /// Whether new members get older epochs' keys (`create`'s `history`).
    public let history: Bool
    /// Every statement's hash, in order; the last is the head.
    public let hashes: [String]
    /// Whose device signed each statement, in order: what the server asks its own rules about.
    public let signers: [UUID]

    public var head: String { hashes.last! }
    public var length: Int { hashes.count }

    /// Whether this chain continues the one a client saw before (see `VerifiedDeviceChain.extends`).
    public func extends(length: Int, head: String) -> Bool { ChainLinks.extends(hashes, length: length, head: head) }

    public var owner: UUID { members.first { $0.role == .owner }!.userID }

    public func role(of user: UUID) -> GroupRole? { members.first { $0.userID == user }?.role }
}

/// Verifies a group chain against the verified device chains of the people who signed it.
///
/// A statement's signer is a device id; the device chain that added it says whose it is and whether it was live
/// when it signed (not revoked before the statement's `at`). The rules (docs/encryption.md's table):
/// - seq 0 is `create`, signed by a live device of its `user`, who becomes owner;
/// - `add` (as `member` or `admin`, of someone not in the group) by a device of an admin or the owner;
/// - `remove` of a member by a device of an admin or the owner, or of the member leaving; the owner is not
///   removed (they hand the group over first, or there would be no owner);
/// - `role` by a device of the owner; `role: owner` hands the group over and the old owner becomes admin.
///
/// ```swift
/// let chains = try people.map { try DeviceChain.verify($0.statements, userID: $0.id) }
/// let group = try GroupChain.verify(groupStatements, groupID: id, deviceChains: chains)
/// ```
public enum GroupChain {
    public static func verify(
        _ statements: [SignedStatement], groupID: UUID, deviceChains: [VerifiedDeviceChain]
    ) throws(ChainError) -> VerifiedGroup {
        guard !statements.isEmpty else { throw ChainError(seq: 0, reason: .empty) }
        var members: [GroupMember] = []
        var history = false
        var hashes: [String] = []
        var signers: [UUID] = []
        for (seq, statement) in statements.enumerated() {
            let previousHash = hashes.last
            func refuse(_ reason: ChainError.Reason) -> ChainError { ChainError(seq: seq, reason: reason) }
            let body = try ChainLinks.body(of: statement, seq: seq, chain: .group(groupID), prev: previousHash)
            let signer = try signingUser(of: statement, at: body.at, seq: seq, in: deviceChains)
            let signerRole = members.first { $0.userID == signer }?.role
            let index = { (user: UUID) in members.firstIndex { $0.userID == user } }
            switch body.kind {
            case .create(let user, let createHistory):
                guard seq == 0 else { throw refuse(.wrongKind("create after seq 0")) }
                guard signer == user else { throw refuse(.notAllowed("create is signed by its user")) }
                members = [GroupMember(userID: user, role: .owner)]
                history = createHistory
            case _ where seq == 0:
                throw refuse(.wrongKind(body.kind.name))
            case .add(let user, let role):
                guard signerRole == .admin || signerRole == .owner else {
                    throw refuse(.notAllowed("only an admin or the owner adds"))
                }
                guard role != .owner else { throw refuse(.notAllowed("add as member or admin; owner is handed over")) }
                guard index(user) == nil else { throw refuse(.notAllowed("\(user) is already a member")) }
                members.append(GroupMember(userID: user, role: role))
            case .remove(let user):
                guard let at = index(user) else { throw refuse(.notAllowed("\(user) is not a member")) }
                guard members[at].role != .owner else {
                    throw refuse(.notAllowed("the owner hands the group over before leaving"))
                }
                guard signer == user || signerRole == .admin || signerRole == .owner else {
                    throw refuse(.notAllowed("only an admin, the owner or the member leaving removes"))
                }
                members.remove(at: at)
            case .role(let user, let role):
                guard signerRole == .owner else { throw refuse(.notAllowed("only the owner changes roles")) }
                guard let at = index(user), user != signer else {
                    throw refuse(.notAllowed("\(user) is not a member other than the owner"))
                }
                if role == .owner, let old = index(signer) {
                    members[old] = GroupMember(userID: signer, role: .admin)
                }
                members[at] = GroupMember(userID: user, role: role)
            case .addDevice, .revokeDevice:
                throw refuse(.wrongKind(body.kind.name))
            }
            hashes.append(statement.hash)
            signers.append(signer)
        }
        return VerifiedGroup(groupID: groupID, members: members, history: history, hashes: hashes, signers: signers)
    }

    /// Whose device signed `statement`: the one person whose chain has a device with the signer's id, live at
    /// `at`, whose key verifies the signature.
    ///
    /// `signer` is not among the signed bytes, and a later `add_device` carries no signature of the device it
    /// adds, so another person's chain can name the same device id, or register the same public key under
    /// another id. An id alone is then not enough (Mallory could otherwise make Alice's statements unverifiable
    /// by reusing her device's id), and a key alone is not either; the id and the key together name the device,
    /// and a statement is refused only when two people's chains hold the same id with the same key.
    private static func signingUser(
        of statement: SignedStatement, at: Int64, seq: Int, in chains: [VerifiedDeviceChain]
    ) throws(ChainError) -> UUID {
        let named = chains.compactMap { chain in chain.device(statement.signer).map { (chain.userID, $0) } }
        guard !named.isEmpty else { throw ChainError(seq: seq, reason: .unknownSigner(statement.signer)) }
        let signing = named.filter { statement.isSigned(by: $0.1.registration.signingPublic) }
        guard !signing.isEmpty else { throw ChainError(seq: seq, reason: .badSignature) }
        guard Set(signing.map(\.0)).count == 1, let (user, device) = signing.first else {
            throw ChainError(seq: seq, reason: .unknownSigner(statement.signer))
        }
        guard device.wasLive(at: at) else { throw ChainError(seq: seq, reason: .signerNotLive(device.id)) }
        return user
    }
}
