import Foundation
import SpotterModels

/// Groups, their members, join requests, bans and invitations.
///
/// Membership is what every read of a group post asks (the adapters' SQL statement of `VisibilityPolicy`),
/// so it lives in one table both databases index by group and by person.
public protocol GroupStore: Sendable {
    /// Inserts the group and makes `group.ownerID` its owner, in one transaction.
    func create(_ group: GroupRecord) async throws
    /// The group, unless deleted.
    func find(_ id: GroupID) async throws -> GroupRecord?
    /// Replaces name, description, access, time zone and avatar.
    func update(_ group: GroupRecord) async throws
    /// Marks the group deleted and tombstones its posts (their photos are discarded for the sweep), and ends
    /// every membership, request and invitation.
    func delete(_ id: GroupID, at date: Date) async throws

    /// How `user` stands with the group (`none` when not at all).
    func standing(of user: UserID, in group: GroupID) async throws -> GroupStanding
    /// Makes `user` a member with `role` (or changes their role), ending any request or named invitation.
    func setMember(_ user: UserID, in group: GroupID, role: GroupRole, at date: Date) async throws
    /// Ends `user`'s membership, request or named invitation; returns whether there was a membership.
    @discardableResult
    func removeMember(_ user: UserID, from group: GroupID) async throws -> Bool
    /// Removes `user` and bans them from joining again (until `unban`).
    func ban(_ user: UserID, from group: GroupID, at date: Date) async throws
    func unban(_ user: UserID, from group: GroupID) async throws
    /// Hands the group to `newOwner` (a member), making the old owner an admin.
    func transfer(_ group: GroupID, to newOwner: UserID) async throws

    /// Records that `user` asks to join.
    func addRequest(_ user: UserID, to group: GroupID, at date: Date) async throws
    /// The people waiting to be let in, oldest first, without the suspended.
    func requests(for group: GroupID) async throws -> [(account: AccountRecord, at: Date)]
    /// The people banned from the group, oldest ban first (the suspended too: an admin may still lift a ban).
    func bans(for group: GroupID) async throws -> [(account: AccountRecord, at: Date)]

    /// A page of members, owner first, then admins, then the rest by when they joined, without the suspended
    /// and people in a block either way with `viewer`.
    func members(
        of group: GroupID, viewer: UserID?, after: UserID?, limit: Int
    ) async throws
        -> [(account: AccountRecord, role: GroupRole, joinedAt: Date)]
    /// Everyone in the group with their roles (for notifications and the realtime hub's checks).
    func memberRoles(of group: GroupID) async throws -> [UserID: GroupRole]
    /// The groups `user` belongs to, with their roles, by name.
    func groups(of user: UserID) async throws -> [(group: GroupRecord, role: GroupRole)]
    /// The groups `user` asked to join and waits on, by name.
    func requested(by user: UserID) async throws -> [GroupRecord]
    /// Groups anyone may find (`open` and `request`) whose name matches `query` (all when empty), by member
    /// count, most first.
    func discoverable(matching query: String, limit: Int) async throws -> [GroupRecord]

    /// Moves `user`'s seen marker in the group forward to `post` (never back); members only.
    func markSeen(_ user: UserID, in group: GroupID, upTo post: PostID) async throws
    /// The newest post of the group `user` has seen, if any.
    func seenMarker(of user: UserID, in group: GroupID) async throws -> PostID?

    /// Stores an invitation (the code's hash, never the code). One to a named person makes their standing
    /// `invited`, unless they are in the group already.
    func insert(_ invitation: GroupInvitationRecord) async throws
    func invitation(_ id: GroupInvitationID) async throws -> GroupInvitationRecord?
    /// The invitation whose code hashes to `codeHash`.
    func invitation(codeHash: String) async throws -> GroupInvitationRecord?
    /// The group's invitations, newest first.
    func invitations(for group: GroupID) async throws -> [GroupInvitationRecord]
    /// Open invitations to `user` by name, newest first.
    func invitations(to user: UserID) async throws -> [GroupInvitationRecord]
    /// Counts one use, unless it would pass `maxUses`; returns whether it was counted.
    func use(_ invitation: GroupInvitationID) async throws -> Bool
    func revoke(_ invitation: GroupInvitationID, at date: Date) async throws
}

/// A group as stored.
public struct GroupRecord: Sendable, Equatable {
    public var id: GroupID
    public var name: String
    public var description: String
    public var avatarURL: String?
    public var timeZone: String
    public var access: GroupAccess
    public var ownerID: UserID
    public var memberCount: Int
    public var createdAt: Date
    /// Posts and photos are sealed on members' devices (`E2EService`); fixed when the group is made.
    public var encrypted: Bool

    public init(
        id: GroupID, name: String, description: String, avatarURL: String?, timeZone: String, access: GroupAccess,
        ownerID: UserID, memberCount: Int = 1, createdAt: Date, encrypted: Bool = false
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.avatarURL = avatarURL
        self.timeZone = timeZone
        self.access = access
        self.ownerID = ownerID
        self.memberCount = memberCount
        self.createdAt = createdAt
        self.encrypted = encrypted
    }

    public var summary: GroupSummary { GroupSummary(id: id, name: name) }
}

/// An invitation as stored: a link's code only as its SHA-256, or a named person.
public struct GroupInvitationRecord: Sendable, Equatable {
    public var id: GroupInvitationID
    public var groupID: GroupID
    public var invitedBy: UserID
    public var invitee: UserID?
    public var codeHash: String?
    public var expiresAt: Date?
    public var maxUses: Int?
    public var uses: Int
    public var revokedAt: Date?
    public var createdAt: Date

    public init(
        id: GroupInvitationID, groupID: GroupID, invitedBy: UserID, invitee: UserID?, codeHash: String?,
        expiresAt: Date?, maxUses: Int?, uses: Int = 0, revokedAt: Date? = nil, createdAt: Date
    ) {
        self.id = id
        self.groupID = groupID
        self.invitedBy = invitedBy
        self.invitee = invitee
        self.codeHash = codeHash
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.revokedAt = revokedAt
        self.createdAt = createdAt
    }

    /// Whether it may still be used at `now`.
    public func isOpen(at now: Date) -> Bool {
        revokedAt == nil && (expiresAt.map { $0 > now } ?? true) && (maxUses.map { uses < $0 } ?? true)
    }
}

extension GroupStore {
    /// `user`'s standing in `group` as the rules see it at `now`: a stored `invited` lapses with the last open
    /// invitation by name (`GroupPolicy.standing`).
    func standing(of user: UserID, in group: GroupID, at now: Date) async throws -> GroupStanding {
        let stored = try await standing(of: user, in: group)
        guard stored == .invited else { return stored }
        return GroupPolicy.standing(stored, invitations: try await invitations(to: user, in: group), at: now)
    }

    /// The invitations by name to `user` in `group`.
    func invitations(to user: UserID, in group: GroupID) async throws -> [GroupInvitationRecord] {
        try await invitations(to: user).filter { $0.groupID == group }
    }
}
