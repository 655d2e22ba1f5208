import Foundation

/// Who may see an account's posts and lists.
public enum Privacy: String, Codable, Sendable, CaseIterable {
    /// Anyone; follows are accepted at once.
    case `public`
    /// Anyone may follow at once; posts default to followers-only.
    case followers
    /// Follows are requests the owner approves; only approved followers see anything beyond the name.
    case `private`
}

/// How weights are shown; they are always stored in kilograms.
public enum Units: String, Codable, Sendable, CaseIterable {
    case kg, lb
}

/// An account's role: admins feature accounts, remove posts and suspend accounts.
public enum Role: String, Codable, Sendable, CaseIterable {
    case member, admin
}

/// The few fields a feed item or a list shows of a person.
public struct AuthorSummary: Codable, Sendable, Equatable, Hashable {
    public var id: UserID
    public var username: String
    public var displayName: String
    public var avatarURL: String?

    public init(id: UserID, username: String, displayName: String, avatarURL: String?) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.avatarURL = avatarURL
    }

    enum CodingKeys: String, CodingKey {
        case id, username
        case displayName = "display_name"
        case avatarURL = "avatar_url"
    }
}

/// How the viewer stands with a profile's owner.
public struct Relationship: Codable, Sendable, Equatable {
    /// `none`, `requested` (waiting for approval) or `following`.
    public var following: FollowState
    public var followedBy: Bool
    public var blocking: Bool
    public var muting: Bool

    public init(following: FollowState = .none, followedBy: Bool = false, blocking: Bool = false, muting: Bool = false)
    {
        self.following = following
        self.followedBy = followedBy
        self.blocking = blocking
        self.muting = muting
    }

    enum CodingKeys: String, CodingKey {
        case following
        case followedBy = "followed_by"
        case blocking, muting
    }
}

public enum FollowState: String, Codable, Sendable {
    case none, requested, following
}

/// A public profile, as `GET /api/v1/users/{username}` returns it.
public struct Profile: Codable, Sendable, Equatable {
    public var id: UserID
    public var username: String
    public var displayName: String
    public var bio: String
    public var avatarURL: String?
    public var units: Units
    public var timeZone: String
    public var privacy: Privacy
    public var createdAt: Date
    public var followersCount: Int
    public var followingCount: Int
    public var postsCount: Int
    /// `nil` when the viewer is not signed in or looks at themselves.
    public var relationship: Relationship?

    public init(
        id: UserID, username: String, displayName: String, bio: String, avatarURL: String?, units: Units,
        timeZone: String, privacy: Privacy, createdAt: Date, followersCount: Int, followingCount: Int,
        postsCount: Int, relationship: Relationship?
    ) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.bio = bio
        self.avatarURL = avatarURL
        self.units = units
        self.timeZone = timeZone
        self.privacy = privacy
        self.createdAt = createdAt
        self.followersCount = followersCount
        self.followingCount = followingCount
        self.postsCount = postsCount
        self.relationship = relationship
    }

    enum CodingKeys: String, CodingKey {
        case id, username
        case displayName = "display_name"
        case bio
        case avatarURL = "avatar_url"
        case units
        case timeZone = "time_zone"
        case privacy
        case createdAt = "created_at"
        case followersCount = "followers_count"
        case followingCount = "following_count"
        case postsCount = "posts_count"
        case relationship
    }
}

/// A page of a cursor-paginated list: pass `next_cursor` back as `cursor` for the next page; `null` means
/// the end. Cursors are opaque and stay valid while new items arrive.
public struct Page<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }
}

extension Page: Equatable where Item: Equatable {}
