import Foundation
import SpotterModels

/// Uploads and what became of them. A media row is also its own processing job: `processing` rows are claimed
/// with a lease, as delivery jobs are, so a node that dies mid-photo leaves it to another and a restart loses
/// nothing. (A job table beside it would hold the same state twice, and two writes would have to agree.)
public protocol MediaStore: Sendable {
    func insert(_ media: MediaRecord) async throws
    func find(_ id: MediaID) async throws -> MediaRecord?
    /// The records of `ids` that exist, in no particular order.
    func find(ids: [MediaID]) async throws -> [MediaRecord]
    /// Moves a `pending` upload to `processing`, due at once; `false` when it was not pending.
    func startProcessing(_ id: MediaID, at date: Date) async throws -> Bool
    /// Takes up to `limit` processing jobs due at `now` (never leased, or leased until before `now`), leasing
    /// each until `leaseUntil`. No two callers, on any node, get the same job.
    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [MediaRecord]
    /// Records a processed photo: `ready`, with its size and placeholder.
    func markReady(_ id: MediaID, width: Int, height: Int, blurhash: String, at date: Date) async throws
    /// Records a refusal: `failed`, with a reason a person can read.
    func markFailed(_ id: MediaID, reason: String, at date: Date) async throws
    /// Puts a job back until `runAt`, counting the attempt (the store was unreachable, say).
    func retry(_ id: MediaID, at runAt: Date) async throws
    /// Replaces alt text and focal point.
    func updateDetails(_ id: MediaID, description: String?, focus: FocalPoint?) async throws
    /// Marks `ids` attached to `post`, in the given order; photos of the post not in `ids` are discarded.
    /// Part of the post's unit of work.
    func attach(_ ids: [MediaID], to post: PostID, at date: Date) async throws
    /// Makes `id` the avatar of `subject` (none when `nil`); the avatar it replaces, whoever uploaded it, is
    /// discarded, and no other subject's avatar is touched. Part of the change's unit of work.
    func setAvatar(_ id: MediaID?, of subject: AvatarSubject, at date: Date) async throws
    /// Discards media: the sweep removes their blobs. `post` discards every photo of a deleted post.
    func discard(_ ids: [MediaID], at date: Date) async throws
    func discard(post: PostID, at date: Date) async throws
    /// Uploads no post or profile took before `staleBefore`, and everything discarded: what the sweep removes.
    func sweepable(staleBefore: Date, limit: Int) async throws -> [MediaRecord]
    /// Forgets media rows once their blobs are gone.
    func delete(_ ids: [MediaID]) async throws
    /// How many of `owner`'s uploads are not yet attached or failed: what the unfinished-upload limit counts.
    func countUnattached(of owner: UserID, since: Date) async throws -> Int
    /// The key media URLs are signed with, shared by every node: `candidate` becomes it when there is none yet,
    /// and every caller, on any node, gets the same one.
    func signingKey(candidate: Data) async throws -> Data
}

/// Who an avatar belongs to: a person's profile, a group, a child profile. A person's avatar anyone may fetch;
/// a group's, anyone while the group is not private; a child's, only through a signed URL given to the people
/// who may see the child (`MediaService.rendition`).
public enum AvatarSubject: Sendable, Hashable {
    case person(UserID)
    case group(GroupID)
    case child(ChildProfileID)

    /// As stored in `media.avatar_of`: `person:<id>`, `group:<id>`, `child:<id>`.
    public var key: String {
        switch self {
        case .person(let id): "person:\(id)"
        case .group(let id): "group:\(id)"
        case .child(let id): "child:\(id)"
        }
    }

    public init?(key: String) {
        let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "person": guard let id = UserID(parts[1]) else { return nil }; self = .person(id)
        case "group": guard let id = GroupID(parts[1]) else { return nil }; self = .group(id)
        case "child": guard let id = ChildProfileID(parts[1]) else { return nil }; self = .child(id)
        default: return nil
        }
    }
}

/// An upload as stored.
public struct MediaRecord: Sendable, Equatable {
    public var id: MediaID
    public var ownerID: UserID
    public var purpose: MediaPurpose
    public var status: MediaStatus
    /// What the client said it would upload.
    public var contentType: String
    public var byteSize: Int
    public var reason: String?
    public var width: Int?
    public var height: Int?
    public var blurhash: String?
    public var description: String?
    public var focus: FocalPoint?
    /// The post it belongs to, once attached.
    public var postID: PostID?
    /// Its place among the post's photos.
    public var position: Int?
    /// When a post or a profile took it; until then the sweep removes it after a day.
    public var attachedAt: Date?
    /// When it stopped being needed (its post deleted or edited away, an avatar replaced).
    public var discardedAt: Date?
    /// Whose avatar it is, once it is one: who may fetch it follows from that.
    public var avatarOf: AvatarSubject?
    public var createdAt: Date
    /// Processing attempts made.
    public var attempts: Int

    public init(
        id: MediaID, ownerID: UserID, purpose: MediaPurpose, status: MediaStatus, contentType: String, byteSize: Int,
        reason: String? = nil, width: Int? = nil, height: Int? = nil, blurhash: String? = nil,
        description: String? = nil, focus: FocalPoint? = nil, postID: PostID? = nil, position: Int? = nil,
        attachedAt: Date? = nil, discardedAt: Date? = nil, avatarOf: AvatarSubject? = nil, createdAt: Date,
        attempts: Int = 0
    ) {
        self.id = id
        self.ownerID = ownerID
        self.purpose = purpose
        self.status = status
        self.contentType = contentType
        self.byteSize = byteSize
        self.reason = reason
        self.width = width
        self.height = height
        self.blurhash = blurhash
        self.description = description
        self.focus = focus
        self.postID = postID
        self.position = position
        self.attachedAt = attachedAt
        self.discardedAt = discardedAt
        self.avatarOf = avatarOf
        self.createdAt = createdAt
        self.attempts = attempts
    }

    /// Where its bytes live in the blob store: the upload as sent, and the two renditions made from it.
    public var originalKey: BlobKey { Self.originalKey(id) }
    public func key(_ rendition: MediaRendition) -> BlobKey { Self.key(id, rendition) }

    public static func originalKey(_ id: MediaID) -> BlobKey { BlobKey("photos/\(id)/original")! }
    public static func key(_ id: MediaID, _ rendition: MediaRendition) -> BlobKey {
        BlobKey("photos/\(id)/\(rendition.rawValue).jpg")!
    }
}

/// The sizes a photo is served in.
public enum MediaRendition: String, Sendable, CaseIterable {
    /// Longest side 1,600 px: the post page and the lightbox.
    case large
    /// Longest side 400 px: feed cards and avatars.
    case small
}
