import Foundation
import GRDB
import SpotterModels

/// A post made on this device that the server has not confirmed yet: shown in its feeds at once, marked as on
/// its way (POWR's "local update before confirmation"), until the server's copy takes its place; or, refused
/// for good, shown as not sent with the server's reason, for the person to retry or discard.
public struct SendingPost: Sendable, Equatable, Identifiable {
    /// Where it waits: the outbox (`ActionQueue`, posts without photos) or the upload queue (`UploadQueue`).
    public enum Source: Sendable, Hashable {
        case outbox(Int64)
        case upload(Int64)
    }

    public var id: Source
    public var request: CreatePostRequest
    /// Its photos as queued, in order (bytes from `AppDatabase.sendingPhoto`); none for an outbox post.
    public var photos: [UploadPhoto]
    public var createdAt: Date
    /// Why its last try did not land and when the next is due; nil before its first try.
    public var retry: PendingRetry?
    /// The server's reason, once it refused the post for good; nil while it is on its way.
    public var refusal: String?

    /// A try failed for want of a network or a working server: it goes when they are back.
    public var waitingForNetwork: Bool { refusal == nil && retry != nil }

    /// Whether the post, once made, shows in `feed`: a group's feed shows that group's posts; the Following
    /// feed and one's own profile (`me`) show all of one's posts, group posts among them (as the server lists
    /// them to a member).
    public func belongs(to feed: FeedKind, me: String?) -> Bool {
        switch feed {
        case .following: true
        case .user(let username): username.lowercased() == me?.lowercased()
        case .group(let group): request.groupID == group
        case .featured, .global, .tag: false
        }
    }
}

/// A feed and the posts on their way, as one read.
struct FeedAndSending: Sendable {
    var posts: Revisioned<[Post]>
    var sending: [SendingPost]
}

/// The posts on their way, read from the outbox and the upload queue, and the step that replaces one by the
/// server's copy.
extension AppDatabase {
    /// A feed as kept and every post on its way or refused, read together: the transaction that swaps a
    /// sending post for the server's copy reaches a screen as one change, never as both or neither.
    func observeFeedAndSending(_ kind: FeedKind) -> AsyncValueObservation<FeedAndSending> {
        ValueObservation.tracking { db in
            FeedAndSending(
                posts: try Revisioned.read(db) { try Self.feed(kind, limit: .max, $0) },
                sending: try Self.sendingPosts(db))
        }
        .values(in: writer)
    }

    func sendingPosts() async throws -> [SendingPost] {
        try await writer.read { db in try Self.sendingPosts(db) }
    }

    /// A queued photo's bytes, to show a post with photos before the server has them.
    public func sendingPhoto(_ post: SendingPost, at position: Int) async throws -> Data? {
        guard case .upload(let job) = post.id else { return nil }
        let bytes = try await uploadBytes(job: job, position: position)
        return bytes.isEmpty ? nil : bytes
    }

    /// The upload job made its post: the job and its bytes go, and the post goes on top of its feeds, in one
    /// transaction.
    func posted(upload job: Int64, _ post: Post) async throws {
        let (json, now, policy) = (try Self.json(post), self.now(), self.policy)
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM upload_jobs WHERE id = ?", arguments: [job])
            try Self.placePosted(post, json: json, at: now, policy: policy, db)
        }
    }

    /// Keeps a post the person just made and puts it on top of the kept feeds it shows in: Following, the
    /// author's profile and its group's feed (`SendingPost.belongs`). A feed not kept yet gets it too: its
    /// first fetch replaces it.
    static func placePosted(
        _ post: Post, json: String, at now: Date, policy: CachePolicy, _ db: Database
    ) throws {
        try keep(post, json: json, at: now, db)
        var feeds: [FeedKind] = [.following, .user(post.author.username)]
        if let group = post.group { feeds.append(.group(group.id)) }
        for feed in feeds {
            try place([post.id.description], in: feed.cacheKey, .onTop, at: now, policy: policy, db)
        }
    }

    private static func sendingPosts(_ db: Database) throws -> [SendingPost] {
        let actions = try actions(db, where: "entity = ?", [Action.newPostEntity])
            .compactMap { queued -> SendingPost? in
                guard case .createPost(let request) = queued.action else { return nil }
                return SendingPost(
                    id: .outbox(queued.id), request: request, photos: [], createdAt: queued.createdAt,
                    retry: queued.retry, refusal: queued.failure)
            }
        let uploads = try uploadJobs(db, where: "1", []).map { job in
            SendingPost(
                id: .upload(job.id), request: job.post, photos: job.photos, createdAt: job.createdAt,
                retry: job.retry, refusal: job.failure)
        }
        return (actions + uploads).sorted { $0.createdAt < $1.createdAt }
    }
}
