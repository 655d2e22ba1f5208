import SpotterModels

/// Who may make someone an admin (or a member again) and who may be handed the group: the one rule REST
/// (`GroupService.setRole`, `transfer`), the web's members page and an encrypted group's chain
/// (`GroupChainPolicy`) ask. Each surface says the refusal in its own words; what is refused is decided here.
///
/// ```swift
/// if let refusal = GroupPolicy.refusal(giving: .admin, to: target, by: standing) { … }  // nil: allowed
/// ```
extension GroupPolicy {
    /// Why a role change or a hand-over may not happen.
    public enum RoleRefusal: Sendable, Equatable {
        /// Only the owner changes roles and hands the group on.
        case notOwner
        /// The person is not a member of the group.
        case notMember
        /// An owner is made only by handing the group on, never by a role change.
        case ownerOnlyByTransfer
        /// The owner's own role changes only when they hand the group on.
        case ownersRole
        /// The group is the actor's already.
        case alreadyOwner
        /// The member's account is suspended: it does nothing, so it is handed nothing.
        case suspended
    }

    /// Why someone of `actor` standing may not give `role` to someone of `target` standing; `nil` when they
    /// may. The owner makes members admins and admins members; nobody else changes roles.
    public static func refusal(
        giving role: GroupRole, to target: GroupStanding, by actor: GroupStanding, access: GroupAccess,
        suspended: Bool = false
    ) -> RoleRefusal? {
        guard allows(.setRoles, standing: actor, access: access, suspended: suspended) else { return .notOwner }
        guard role != .owner else { return .ownerOnlyByTransfer }
        guard target.role != nil else { return .notMember }
        guard target != .owner else { return .ownersRole }
        return nil
    }

    /// Why someone of `actor` standing may not hand the group to someone of `target` standing (whose account is
    /// suspended when `targetSuspended`); `nil` when they may. The owner hands it to any other member whose
    /// account is active, and stays as an admin.
    public static func refusal(
        transferringTo target: GroupStanding, targetSuspended: Bool, by actor: GroupStanding, access: GroupAccess,
        suspended: Bool = false
    ) -> RoleRefusal? {
        guard allows(.transfer, standing: actor, access: access, suspended: suspended) else { return .notOwner }
        guard target != .owner else { return .alreadyOwner }
        guard target.role != nil else { return .notMember }
        guard !targetSuspended else { return .suspended }
        return nil
    }
}
