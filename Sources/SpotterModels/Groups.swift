import Foundation

/// Who may find, read and join a group.
public enum GroupAccess: String, Codable, Sendable, CaseIterable {
    /// Anyone may join, and anyone may read its posts.
    case open
    /// Anyone may read its about page and ask to join; an admin approves.
    case request
    /// Invitation only: the group, its members and its posts do not exist for anyone else.
    case `private`
}

/// A member's role. The owner is one person; admins manage members and invitations.
public enum GroupRole: String, Codable, Sendable, CaseIterable, Comparable {
    case member, admin, owner

    private var rank: Int {
        switch self {
        case .member: 0
        case .admin: 1
        case .owner: 2
        }
    }

    public static func < (lhs: GroupRole, rhs: GroupRole) -> Bool { lhs.rank < rhs.rank }
}

/// How the viewer stands with a group.
public enum GroupStanding: String, Codable, Sendable, CaseIterable {
    case owner, admin, member
    /// Invited by name, not yet accepted.
    case invited
    /// Asked to join, not yet approved.
    case requested
    case banned
    case none

    public var role: GroupRole? {
        switch self {
        case .owner: .owner
        case .admin: .admin
        case .member: .member
        case .invited, .requested, .banned, .none: nil
        }
    }
}

/// What a post carries of the group it was posted to.
public struct GroupSummary: Codable, Sendable, Equatable, Hashable {
    public var id: GroupID
    public var name: String

    public init(id: GroupID, name: String) {
        self.id = id
        self.name = name
    }
}

/// A group as its about page shows it.
public struct Group: Codable, Sendable, Equatable {
    public var id: GroupID
    public var name: String
    public var description: String
    public var avatarURL: String?
    /// An IANA time zone name: when the group's day starts, for its notifications' batching.
    public var timeZone: String
    public var access: GroupAccess
    public var memberCount: Int
    public var createdAt: Date
    /// How the viewer stands with it.
    public var standing: GroupStanding
    /// Join requests waiting, for its owner and admins; `nil` for everyone else.
    public var pendingRequests: Int?
    /// For a member: posts by others since the newest they marked seen (`POST …/seen`), counted up to 100.
    public var newPosts: Int?
    /// Posts and photos are encrypted on members' devices (docs/encryption.md); always private.
    public var encrypted: Bool

    public init(
        id: GroupID, name: String, description: String, avatarURL: String?, timeZone: String, access: GroupAccess,
        memberCount: Int, createdAt: Date, standing: GroupStanding, pendingRequests: Int? = nil, newPosts: Int? = nil,
        encrypted: Bool = false
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.avatarURL = avatarURL
        self.timeZone = timeZone
        self.access = access
        self.memberCount = memberCount
        self.createdAt = createdAt
        self.standing = standing
        self.pendingRequests = pendingRequests
        self.newPosts = newPosts
        self.encrypted = encrypted
    }

    enum CodingKeys: String, CodingKey {
        case id, name, description, access, standing, encrypted
        case avatarURL = "avatar_url"
        case timeZone = "time_zone"
        case memberCount = "member_count"
        case createdAt = "created_at"
        case pendingRequests = "pending_requests"
        case newPosts = "new_posts"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(GroupID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decode(String.self, forKey: .description)
        avatarURL = try container.decodeIfPresent(String.self, forKey: .avatarURL)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        access = try container.decode(GroupAccess.self, forKey: .access)
        memberCount = try container.decode(Int.self, forKey: .memberCount)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        standing = try container.decode(GroupStanding.self, forKey: .standing)
        pendingRequests = try container.decodeIfPresent(Int.self, forKey: .pendingRequests)
        newPosts = try container.decodeIfPresent(Int.self, forKey: .newPosts)
        // Groups a client cached before encryption existed are not encrypted.
        encrypted = try container.decodeIfPresent(Bool.self, forKey: .encrypted) ?? false
    }
}

/// `POST /api/v1/groups`.
public struct CreateGroupRequest: Codable, Sendable, Equatable {
    public var name: String
    public var description: String?
    public var access: GroupAccess
    public var timeZone: String?
    /// An upload with purpose `avatar`.
    public var avatarMediaID: MediaID?
    /// Posts and photos encrypted on members' devices; the group must be `private`.
    public var encrypted: Bool?

    public init(
        name: String, description: String? = nil, access: GroupAccess, timeZone: String? = nil,
        avatarMediaID: MediaID? = nil, encrypted: Bool? = nil
    ) {
        self.name = name
        self.description = description
        self.access = access
        self.timeZone = timeZone
        self.avatarMediaID = avatarMediaID
        self.encrypted = encrypted
    }

    enum CodingKeys: String, CodingKey {
        case name, description, access, encrypted
        case timeZone = "time_zone"
        case avatarMediaID = "avatar_media_id"
    }
}

/// `PATCH /api/v1/groups/{id}`: fields left out stay as they are.
public struct UpdateGroupRequest: Codable, Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var access: GroupAccess?
    public var timeZone: String?
    /// An upload with purpose `avatar`, of the admin making the change.
    public var avatarMediaID: MediaID?
    /// `true` removes the avatar.
    public var removeAvatar: Bool?

    public init(
        name: String? = nil, description: String? = nil, access: GroupAccess? = nil, timeZone: String? = nil,
        avatarMediaID: MediaID? = nil, removeAvatar: Bool? = nil
    ) {
        self.name = name
        self.description = description
        self.access = access
        self.timeZone = timeZone
        self.avatarMediaID = avatarMediaID
        self.removeAvatar = removeAvatar
    }

    enum CodingKeys: String, CodingKey {
        case name, description, access
        case timeZone = "time_zone"
        case avatarMediaID = "avatar_media_id"
        case removeAvatar = "remove_avatar"
    }
}

/// A member as the members list shows them.
public struct GroupMember: Codable, Sendable, Equatable {
    public var person: AuthorSummary
    public var role: GroupRole
    public var joinedAt: Date

    public init(person: AuthorSummary, role: GroupRole, joinedAt: Date) {
        self.person = person
        self.role = role
        self.joinedAt = joinedAt
    }

    enum CodingKeys: String, CodingKey {
        case person, role
        case joinedAt = "joined_at"
    }
}

/// Someone waiting for an admin to let them in.
public struct GroupJoinRequest: Codable, Sendable, Equatable {
    public var person: AuthorSummary
    public var requestedAt: Date

    public init(person: AuthorSummary, requestedAt: Date) {
        self.person = person
        self.requestedAt = requestedAt
    }

    enum CodingKeys: String, CodingKey {
        case person
        case requestedAt = "requested_at"
    }
}

/// Someone banned from a group, as its admins see them (`GET /groups/{id}/bans`).
public struct GroupBan: Codable, Sendable, Equatable {
    public var person: AuthorSummary
    public var bannedAt: Date

    public init(person: AuthorSummary, bannedAt: Date) {
        self.person = person
        self.bannedAt = bannedAt
    }

    enum CodingKeys: String, CodingKey {
        case person
        case bannedAt = "banned_at"
    }
}

/// An invitation: a code anyone holding it may use (`code` and `url` appear once, when it is made: the
/// server keeps only its hash), or one to a named person.
public struct GroupInvitation: Codable, Sendable, Equatable {
    public var id: GroupInvitationID
    public var group: GroupSummary
    public var invitedBy: AuthorSummary
    /// The person invited by name; `nil` for a link.
    public var invitee: AuthorSummary?
    public var code: String?
    public var url: String?
    public var expiresAt: Date?
    public var maxUses: Int?
    public var uses: Int
    public var revoked: Bool
    public var createdAt: Date

    public init(
        id: GroupInvitationID, group: GroupSummary, invitedBy: AuthorSummary, invitee: AuthorSummary?,
        code: String? = nil, url: String? = nil, expiresAt: Date?, maxUses: Int?, uses: Int, revoked: Bool,
        createdAt: Date
    ) {
        self.id = id
        self.group = group
        self.invitedBy = invitedBy
        self.invitee = invitee
        self.code = code
        self.url = url
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.revoked = revoked
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, group, invitee, code, url, uses, revoked
        case invitedBy = "invited_by"
        case expiresAt = "expires_at"
        case maxUses = "max_uses"
        case createdAt = "created_at"
    }
}

/// `POST /api/v1/groups/{id}/invitations`: a link (no `username`) or an invitation to a named person.
public struct CreateInvitationRequest: Codable, Sendable, Equatable {
    public var username: String?
    /// Seconds until the link stops working; `nil` for the default (7 days). Named invitations last 30 days.
    public var expiresIn: Int?
    public var maxUses: Int?

    public init(username: String? = nil, expiresIn: Int? = nil, maxUses: Int? = nil) {
        self.username = username
        self.expiresIn = expiresIn
        self.maxUses = maxUses
    }

    enum CodingKeys: String, CodingKey {
        case username
        case expiresIn = "expires_in"
        case maxUses = "max_uses"
    }
}

/// `POST /api/v1/groups/join`: accept an invitation link's code.
public struct JoinByCodeRequest: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) { self.code = code }
}

/// `PATCH /api/v1/groups/{id}/members/{user_id}`: make a member an admin or a member again.
public struct SetMemberRoleRequest: Codable, Sendable, Equatable {
    public var role: GroupRole

    public init(role: GroupRole) { self.role = role }
}

/// `POST /api/v1/groups/{id}/seen`: the newest of the group's posts the member has seen.
public struct GroupSeenRequest: Codable, Sendable, Equatable {
    public var upTo: PostID

    public init(upTo: PostID) { self.upTo = upTo }

    enum CodingKeys: String, CodingKey {
        case upTo = "up_to"
    }
}

/// The orders a group's feed comes in.
public enum GroupFeedOrder: String, Codable, Sendable, CaseIterable {
    /// Newest first.
    case newest
    /// Members' reactions and age, what this member has not seen weighing more (`GroupFeedRanking`).
    case top
}

/// `POST /api/v1/groups/{id}/transfer`.
public struct TransferGroupRequest: Codable, Sendable, Equatable {
    public var userID: UserID

    public init(userID: UserID) { self.userID = userID }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
    }
}
