import Foundation

/// A child a parent manages: a name, an avatar and a birth year, and no login, no keys and no public presence.
/// Only its guardians see it; a post that names it may go only to a private group.
public struct ChildProfile: Codable, Sendable, Equatable {
    public var id: ChildProfileID
    public var name: String
    public var avatarURL: String?
    public var birthYear: Int
    /// The accounts that manage it.
    public var guardians: [AuthorSummary]
    /// People invited to become guardians, not yet accepted.
    public var invitedGuardians: [AuthorSummary]
    public var createdAt: Date

    public init(
        id: ChildProfileID, name: String, avatarURL: String?, birthYear: Int, guardians: [AuthorSummary],
        invitedGuardians: [AuthorSummary] = [], createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.avatarURL = avatarURL
        self.birthYear = birthYear
        self.guardians = guardians
        self.invitedGuardians = invitedGuardians
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, guardians
        case avatarURL = "avatar_url"
        case birthYear = "birth_year"
        case invitedGuardians = "invited_guardians"
        case createdAt = "created_at"
    }
}

/// What a post shows of a child it names: to the private group's members only.
public struct ChildSummary: Codable, Sendable, Equatable, Hashable {
    public var id: ChildProfileID
    public var name: String

    public init(id: ChildProfileID, name: String) {
        self.id = id
        self.name = name
    }
}

/// `POST /api/v1/me/children`.
public struct CreateChildProfileRequest: Codable, Sendable, Equatable {
    public var name: String
    public var birthYear: Int
    /// An upload with purpose `avatar`.
    public var avatarMediaID: MediaID?

    public init(name: String, birthYear: Int, avatarMediaID: MediaID? = nil) {
        self.name = name
        self.birthYear = birthYear
        self.avatarMediaID = avatarMediaID
    }

    enum CodingKeys: String, CodingKey {
        case name
        case birthYear = "birth_year"
        case avatarMediaID = "avatar_media_id"
    }
}

/// `PATCH /api/v1/me/children/{id}`: fields left out stay as they are.
public struct UpdateChildProfileRequest: Codable, Sendable, Equatable {
    public var name: String?
    public var birthYear: Int?
    /// An upload with purpose `avatar`, of the guardian making the change.
    public var avatarMediaID: MediaID?
    /// `true` removes the avatar.
    public var removeAvatar: Bool?

    public init(name: String? = nil, birthYear: Int? = nil, avatarMediaID: MediaID? = nil, removeAvatar: Bool? = nil) {
        self.name = name
        self.birthYear = birthYear
        self.avatarMediaID = avatarMediaID
        self.removeAvatar = removeAvatar
    }

    enum CodingKeys: String, CodingKey {
        case name
        case birthYear = "birth_year"
        case avatarMediaID = "avatar_media_id"
        case removeAvatar = "remove_avatar"
    }
}

/// `POST /api/v1/me/children/{id}/guardians`: invite another account to manage the child too.
public struct InviteGuardianRequest: Codable, Sendable, Equatable {
    public var username: String

    public init(username: String) { self.username = username }
}
