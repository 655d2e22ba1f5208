import Foundation
import SpotterModels

/// What each person may do with a group: the one rule the REST routes, the web app, the realtime socket and
/// the post rules ask.
///
/// | | open | request | private |
/// |---|---|---|---|
/// | about page, existence in discovery | anyone | anyone | members |
/// | posts and members | anyone but the banned | members | members |
/// | join | anyone not banned | ask; an admin approves | by invitation |
///
/// Members post and leave (the owner hands the group on first); admins manage requests, invitations,
/// settings and members below them; the owner also makes and unmakes admins, transfers and deletes. Someone
/// banned is a stranger who may not join or ask again, nor read the group's posts or members, even an open
/// group's (`VisibilityPolicy` closes each post to them too). A suspended account may do nothing. An invitation by
/// name counts only while it is open (`standing`).
public enum GroupPolicy {
    public enum Action: Sendable, Equatable, CaseIterable {
        case seeAbout, readPosts, seeMembers, join, askToJoin, post, leave
        case manageRequests, invite, editSettings, removeMembers, setRoles, transfer, delete
    }

    /// Whether someone of `standing` (signed in or not, suspended or not) may take `action` in a group of
    /// `access`. Whom an admin may remove is `mayRemove`'s.
    public static func allows(
        _ action: Action, standing: GroupStanding, access: GroupAccess, signedIn: Bool = true, suspended: Bool = false
    ) -> Bool {
        if suspended { return false }
        let role = standing.role
        let isMember = role != nil
        let isAdmin = role.map { $0 >= .admin } ?? false
        switch action {
        case .seeAbout: return access != .private || isMember || standing == .invited
        case .readPosts, .seeMembers: return isMember || (access == .open && standing != .banned)
        case .join: return signedIn && !isMember && standing != .banned && access == .open
        case .askToJoin:
            return signedIn && access == .request && !isMember && standing != .banned && standing != .requested
        case .post: return isMember
        case .leave: return isMember && role != .owner
        case .manageRequests, .invite, .editSettings, .removeMembers: return isAdmin
        case .setRoles, .transfer, .delete: return role == .owner
        }
    }

    /// How someone stands with a group, from the standing stored for them and the invitations by name to them
    /// in it: `invited` only while one of those is open (not expired, not revoked), as a link's code works only
    /// while it is. After that they stand as anyone does (`none`): an expired invitation admits nobody and
    /// shows nobody a private group. The clock is the caller's (`GroupService`'s), so tests move it.
    public static func standing(
        _ stored: GroupStanding, invitations: [GroupInvitationRecord], at now: Date
    ) -> GroupStanding {
        guard stored == .invited else { return stored }
        return invitations.contains { $0.isOpen(at: now) } ? .invited : .none
    }

    /// Whether someone of role `actor` may remove or ban someone of `target`'s standing: admins remove
    /// members (and people waiting or invited), the owner anyone but themselves.
    public static func mayRemove(_ target: GroupStanding, by actor: GroupRole) -> Bool {
        switch actor {
        case .owner: target != .owner
        case .admin: target.role.map { $0 < .admin } ?? true
        case .member: false
        }
    }
}
