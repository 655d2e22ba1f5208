import SpotterE2E
import SpotterModels

/// Which statements of an encrypted group's chain the server takes, beyond the chain's own rules: the
/// server's membership and roles (`group_members`, as `GroupPolicy` reads them) are the group's truth, and
/// the chain follows them (docs/encryption.md, "Who holds what").
///
/// A statement is taken when it is something its signer may do now by `GroupPolicy` (an admin removing a
/// member, a member leaving, the owner changing a role or handing the group on to a member whose account is
/// active: `GroupPolicy.refusal(giving:)` and `refusal(transferringTo:)`), or when it mirrors what
/// the server already says (an `add` of someone it counts, with the role it gives them; a `remove` of
/// someone it no longer counts; a `role` it already gives). So an admin demoted through REST removes nobody
/// through the chain, and after a REST transfer the old owner's device can only sign the hand-over.
///
/// ```swift
/// var policy = GroupChainPolicy(roles: try await storage.groups.memberRoles(of: id), access: group.access)
/// for (kind, signer) in statements { try policy.take(kind, signer: signer) }  // 403 with a sentence
/// ```
public struct GroupChainPolicy: Sendable {
    /// The roles by the server, as the statements taken so far change them.
    public private(set) var roles: [UserID: SpotterModels.GroupRole]
    let access: GroupAccess
    /// Members whose accounts are suspended: nobody hands them the group (`GroupPolicy.refusal(transferringTo:)`).
    let suspended: Set<UserID>

    public init(roles: [UserID: SpotterModels.GroupRole], access: GroupAccess, suspended: Set<UserID> = []) {
        self.roles = roles
        self.access = access
        self.suspended = suspended
    }

    /// Takes `kind`, signed by a device of `signer`, and applies to `roles` what it changes on the server; a
    /// statement its signer may not make now, and that says something the server does not, is a 403.
    public mutating func take(_ kind: StatementKind, signer: UserID) throws {
        switch kind {
        case .add(let user, let role):
            guard let given = roles[UserID(rawValue: user)] else {
                throw SpotterError.forbidden("This person is not a member of the group: only members get its keys.")
            }
            // The owner is added as an admin, then handed the group: the chain adds nobody as its owner.
            let mirrored = given == .owner ? .admin : given
            guard role.rawValue == mirrored.rawValue else {
                throw SpotterError.forbidden(
                    "The group counts this person as \(Self.name(given)): add them as \(Self.name(mirrored)).")
            }
        case .remove(let user):
            let person = UserID(rawValue: user)
            guard let target = roles[person] else { return }  // the server let them go already
            try checkRemoval(of: person, target: target, by: signer)
            roles[person] = nil
        case .role(let user, let role):
            let person = UserID(rawValue: user)
            guard let wanted = SpotterModels.GroupRole(rawValue: role.rawValue), roles[person] != wanted else {
                return  // the role the server gives them already
            }
            guard let current = roles[person] else {
                throw SpotterError.forbidden("This person is not a member of the group.")
            }
            // Who may is `GroupPolicy`'s, as for REST: the words are the chain's.
            let actor = roles[signer].map(GroupStanding.init) ?? .none
            let refusal =
                wanted == .owner
                ? GroupPolicy.refusal(
                    transferringTo: GroupStanding(current), targetSuspended: suspended.contains(person), by: actor,
                    access: access)
                : GroupPolicy.refusal(giving: wanted, to: GroupStanding(current), by: actor, access: access)
            switch refusal {
            case nil: break
            case .notOwner:
                throw SpotterError.forbidden(
                    "Only the group's owner changes roles or hands the group on; whoever signed this is not the "
                        + "owner now.")
            case .ownersRole, .alreadyOwner, .ownerOnlyByTransfer:
                throw SpotterError.forbidden("The owner's role changes only when they hand the group on.")
            case .suspended:
                throw SpotterError.forbidden("The group is handed only to a member whose account is active.")
            case .notMember: throw SpotterError.forbidden("This person is not a member of the group.")
            }
            if wanted == .owner {
                for (member, role) in roles where role == .owner { roles[member] = .admin }
            }
            roles[person] = wanted
        case .create, .addDevice, .revokeDevice:
            return  // the chain's first statement names the owner; device statements are no group's
        }
    }

    private func checkRemoval(of person: UserID, target: SpotterModels.GroupRole, by signer: UserID) throws {
        let standing = GroupStanding(target)
        if person == signer {
            guard GroupPolicy.allows(.leave, standing: standing, access: access) else {
                throw SpotterError.forbidden("The owner hands the group on before leaving it.")
            }
            return
        }
        guard let actor = roles[signer], allows(.removeMembers, signer) else {
            throw SpotterError.forbidden(
                "Only the group's admins remove members; whoever signed this is not one now.")
        }
        guard GroupPolicy.mayRemove(standing, by: actor) else {
            throw SpotterError.forbidden(
                target == .owner ? "Nobody removes the group's owner." : "Only the group's owner removes an admin.")
        }
    }

    private func allows(_ action: GroupPolicy.Action, _ signer: UserID) -> Bool {
        guard let role = roles[signer] else { return false }
        return GroupPolicy.allows(action, standing: GroupStanding(role), access: access)
    }

    private static func name(_ role: SpotterModels.GroupRole) -> String {
        switch role {
        case .owner: "its owner"
        case .admin: "an admin"
        case .member: "a member"
        }
    }
}
