import Foundation

public enum PostKind: String, Codable, Sendable, CaseIterable {
    case note, workout
}

/// Who may see a post.
public enum Visibility: String, Codable, Sendable, CaseIterable {
    case `public`, followers, `private`
    /// The members of the group it was posted to (`Post.group`), and nobody else.
    case group

    /// The audiences a person picks for a post of their own, or a template; `group` comes with a group.
    public static let personal: [Visibility] = [.public, .followers, .private]
}

/// A post as every feed, the post route and realtime events carry it: the post, its author, its counts and
/// the viewer's own state.
public struct Post: Codable, Sendable, Equatable {
    public var id: PostID
    public var kind: PostKind
    public var author: AuthorSummary
    public var text: String
    public var visibility: Visibility
    public var workout: WorkoutRecord?
    public var hashtags: [String]
    public var mentions: [String]
    public var personalRecords: [PersonalRecord]
    public var createdAt: Date
    public var editedAt: Date?
    public var kudosCount: Int
    public var commentsCount: Int
    /// The first people who gave kudos (up to 3), oldest first.
    public var kudosPreview: [AuthorSummary]
    public var kudosedByMe: Bool
    /// Its photos, in order (up to four).
    public var media: [MediaAttachment]
    /// The group it was posted to (visibility `group`), else `nil`.
    public var group: GroupSummary?
    /// The child profiles it names (posted for a child, in a private group).
    public var children: [ChildSummary]
    /// In an encrypted group: the post's text, workout, photos and children's names, sealed on the device that
    /// made it (`text` is empty then). Only members' devices open it.
    public var sealed: SealedContent?

    public init(
        id: PostID, kind: PostKind, author: AuthorSummary, text: String, visibility: Visibility,
        workout: WorkoutRecord?, hashtags: [String], mentions: [String], personalRecords: [PersonalRecord],
        createdAt: Date, editedAt: Date?, kudosCount: Int, commentsCount: Int, kudosPreview: [AuthorSummary],
        kudosedByMe: Bool, media: [MediaAttachment] = [], group: GroupSummary? = nil, children: [ChildSummary] = [],
        sealed: SealedContent? = nil
    ) {
        self.id = id
        self.kind = kind
        self.author = author
        self.text = text
        self.visibility = visibility
        self.workout = workout
        self.hashtags = hashtags
        self.mentions = mentions
        self.personalRecords = personalRecords
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.kudosCount = kudosCount
        self.commentsCount = commentsCount
        self.kudosPreview = kudosPreview
        self.kudosedByMe = kudosedByMe
        self.media = media
        self.group = group
        self.children = children
        self.sealed = sealed
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, author, text, visibility, workout, hashtags, mentions, media, group, children, sealed
        case personalRecords = "personal_records"
        case createdAt = "created_at"
        case editedAt = "edited_at"
        case kudosCount = "kudos_count"
        case commentsCount = "comments_count"
        case kudosPreview = "kudos_preview"
        case kudosedByMe = "kudosed_by_me"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(PostID.self, forKey: .id)
        kind = try container.decode(PostKind.self, forKey: .kind)
        author = try container.decode(AuthorSummary.self, forKey: .author)
        text = try container.decode(String.self, forKey: .text)
        visibility = try container.decode(Visibility.self, forKey: .visibility)
        workout = try container.decodeIfPresent(WorkoutRecord.self, forKey: .workout)
        hashtags = try container.decode([String].self, forKey: .hashtags)
        mentions = try container.decode([String].self, forKey: .mentions)
        personalRecords = try container.decode([PersonalRecord].self, forKey: .personalRecords)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        editedAt = try container.decodeIfPresent(Date.self, forKey: .editedAt)
        kudosCount = try container.decode(Int.self, forKey: .kudosCount)
        commentsCount = try container.decode(Int.self, forKey: .commentsCount)
        kudosPreview = try container.decode([AuthorSummary].self, forKey: .kudosPreview)
        kudosedByMe = try container.decode(Bool.self, forKey: .kudosedByMe)
        // Posts a client cached before photos existed have none.
        media = try container.decodeIfPresent([MediaAttachment].self, forKey: .media) ?? []
        group = try container.decodeIfPresent(GroupSummary.self, forKey: .group)
        children = try container.decodeIfPresent([ChildSummary].self, forKey: .children) ?? []
        sealed = try container.decodeIfPresent(SealedContent.self, forKey: .sealed)
    }
}

/// `POST /api/v1/posts`.
public struct CreatePostRequest: Codable, Sendable, Equatable {
    public var kind: PostKind
    public var text: String?
    public var visibility: Visibility?
    public var workout: WorkoutRecord?
    /// Photos to attach, in order: up to four of the author's own ready uploads.
    public var mediaIDs: [MediaID]?
    /// Posts to this group instead of the public (visibility `group`, which may be left out).
    public var groupID: GroupID?
    /// Child profiles the post is for (the author is their guardian); only a private group may take it.
    public var childIDs: [ChildProfileID]?
    /// For an encrypted group, and only there: the whole content, sealed on the device (no text, workout or
    /// photos beside it).
    public var sealed: SealedContent?
    /// With `sealed`: the id the device sealed the post under (its keys are bound to it), a UUIDv7 made now.
    public var id: PostID?

    public init(
        kind: PostKind, text: String? = nil, visibility: Visibility? = nil, workout: WorkoutRecord? = nil,
        mediaIDs: [MediaID]? = nil, groupID: GroupID? = nil, childIDs: [ChildProfileID]? = nil,
        sealed: SealedContent? = nil, id: PostID? = nil
    ) {
        self.id = id
        self.kind = kind
        self.text = text
        self.visibility = visibility
        self.workout = workout
        self.mediaIDs = mediaIDs
        self.groupID = groupID
        self.childIDs = childIDs
        self.sealed = sealed
    }

    enum CodingKeys: String, CodingKey {
        case kind, text, visibility, workout, sealed, id
        case mediaIDs = "media_ids"
        case groupID = "group_id"
        case childIDs = "child_ids"
    }
}

/// `PATCH /api/v1/posts/{id}`: fields left out stay as they are.
public struct UpdatePostRequest: Codable, Sendable, Equatable {
    public var text: String?
    public var visibility: Visibility?
    public var workout: WorkoutRecord?
    /// The post's photos from now on, in order: add, remove and reorder by sending the whole list.
    public var mediaIDs: [MediaID]?

    public init(
        text: String? = nil, visibility: Visibility? = nil, workout: WorkoutRecord? = nil, mediaIDs: [MediaID]? = nil
    ) {
        self.text = text
        self.visibility = visibility
        self.workout = workout
        self.mediaIDs = mediaIDs
    }

    enum CodingKeys: String, CodingKey {
        case text, visibility, workout
        case mediaIDs = "media_ids"
    }
}

/// What a kudos toggle returns.
public struct KudosState: Codable, Sendable, Equatable {
    public var postID: PostID
    public var kudosCount: Int
    public var kudosedByMe: Bool

    public init(postID: PostID, kudosCount: Int, kudosedByMe: Bool) {
        self.postID = postID
        self.kudosCount = kudosCount
        self.kudosedByMe = kudosedByMe
    }

    enum CodingKeys: String, CodingKey {
        case postID = "post_id"
        case kudosCount = "kudos_count"
        case kudosedByMe = "kudosed_by_me"
    }
}

/// A comment, or a reply to one (one level deep).
public struct Comment: Codable, Sendable, Equatable {
    public var id: CommentID
    public var postID: PostID
    public var parentID: CommentID?
    public var author: AuthorSummary
    public var text: String
    public var createdAt: Date
    /// When its author last changed the text; absent on a comment never edited (and in payloads from before
    /// comments could be edited).
    public var editedAt: Date?
    /// In an encrypted group: the comment's text, sealed on the device (`text` is empty then).
    public var sealed: SealedContent?

    public init(
        id: CommentID, postID: PostID, parentID: CommentID?, author: AuthorSummary, text: String, createdAt: Date,
        editedAt: Date? = nil, sealed: SealedContent? = nil
    ) {
        self.id = id
        self.postID = postID
        self.parentID = parentID
        self.author = author
        self.text = text
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.sealed = sealed
    }

    enum CodingKeys: String, CodingKey {
        case id
        case postID = "post_id"
        case parentID = "parent_id"
        case author, text, sealed
        case createdAt = "created_at"
        case editedAt = "edited_at"
    }
}

/// `POST /api/v1/posts/{id}/comments`.
public struct CreateCommentRequest: Codable, Sendable, Equatable {
    public var text: String
    public var parentID: CommentID?
    /// On a post of an encrypted group, and only there: the text sealed on the device (`text` empty).
    public var sealed: SealedContent?
    /// With `sealed`: the id the device sealed the comment under, a UUIDv7 made now.
    public var id: CommentID?

    public init(text: String, parentID: CommentID? = nil, sealed: SealedContent? = nil, id: CommentID? = nil) {
        self.text = text
        self.parentID = parentID
        self.sealed = sealed
        self.id = id
    }

    enum CodingKeys: String, CodingKey {
        case text, sealed, id
        case parentID = "parent_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sealed = try container.decodeIfPresent(SealedContent.self, forKey: .sealed)
        id = try container.decodeIfPresent(CommentID.self, forKey: .id)
        // A sealed comment has no text in the clear; a plain one must.
        text =
            try sealed == nil
            ? container.decode(String.self, forKey: .text) : container.decodeIfPresent(String.self, forKey: .text) ?? ""
        parentID = try container.decodeIfPresent(CommentID.self, forKey: .parentID)
    }
}

/// `PATCH /api/v1/posts/{id}/comments/{comment_id}`: a comment's new text (its place in the thread stays).
public struct UpdateCommentRequest: Codable, Sendable, Equatable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}
