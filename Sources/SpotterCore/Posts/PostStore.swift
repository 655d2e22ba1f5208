import Foundation
import SpotterModels

/// Posts, their tags, kudos and comments, and the feeds over them.
///
/// Every read that takes a `viewer` returns only what that viewer may see (see `VisibilityPolicy`, which the
/// contract suite holds each adapter's SQL to): deleted posts, suspended authors, blocked people either way,
/// and posts above the viewer's relationship never appear, in lists or in counts.
public protocol PostStore: Sendable {
    func insert(_ post: PostRecord) async throws
    /// Replaces text, visibility, workout, tags and records, and sets `edited_at`.
    func update(_ post: PostRecord) async throws
    /// Marks a post deleted; it disappears from every feed, search and count.
    func tombstone(_ id: PostID, at date: Date) async throws
    /// The stored post whatever its state, for its author and admins.
    func record(_ id: PostID) async throws -> PostRecord?
    /// Posts as a feed serves them, newest first, only those `viewer` may see.
    func feed(_ query: FeedQuery, viewer: UserID?) async throws -> [Post]
    /// Public posts `viewer` may see, done at or after `since` (newest first, at most `limit`), not muted,
    /// for the Featured ranking.
    func rankingCandidates(viewer: UserID?, since: Date, limit: Int) async throws -> [RankingCandidate]
    /// A group's posts `viewer` may see, made at or after `since` (newest first, at most `limit`), each with the
    /// kudos and comments its group's current members gave it: the group feed's "top" order ranks these, then
    /// reads its page's posts whole (`posts(_:viewer:)`).
    func groupRankingCandidates(
        in group: GroupID, viewer: UserID?, since: Date, limit: Int
    ) async throws -> [GroupRankingCandidate]
    /// How many of a group's posts `viewer` may see that are newer than `after` (all with `nil`) and not their
    /// own, counting at most `cap`: "new since you last looked".
    func countNewer(in group: GroupID, after: PostID?, viewer: UserID, cap: Int) async throws -> Int
    /// The posts of `ids` that `viewer` may see, as `post(_:viewer:)` reads each, in one read, in no particular
    /// order.
    func posts(_ ids: [PostID], viewer: UserID?) async throws -> [Post]
    /// One post as `viewer` sees it, or `nil` when it is gone or not for them.
    func post(_ id: PostID, viewer: UserID?) async throws -> Post?
    /// What giving kudos needs of a post, by the same rule as `post`, without the rest of it: reading the
    /// whole post, with its kudos preview and comment count, made every kudos pay for far more than it uses.
    func kudosTarget(_ id: PostID, viewer: UserID) async throws -> KudosTarget?
    /// Everyone who gave the post kudos (suspended people included: callers filter as they need).
    func kudosGivers(of post: PostID) async throws -> Set<UserID>
    /// A page of the people who gave the post kudos, by account id, after `after`: suspended people and anyone
    /// blocked either way with `viewer` left out. Whether the viewer may see the post is the caller's to ask.
    func kudosGivers(of post: PostID, viewer: UserID?, after: UserID?, limit: Int) async throws -> [AccountRecord]
    /// Every completed workout of `author` listed for `viewer` (`VisibilityPolicy.isListed(.profile, …)`: a
    /// group's workouts only for its members), oldest first; with `since`, only those performed at or after it.
    func workoutHistory(of author: UserID, viewer: UserID?, since: Date?) async throws -> [WorkoutHistoryEntry]
    /// People (not suspended) with a workout, of any visibility, performed at or after `since`, with their
    /// time zones: the ones a streak reminder or weekly summary may be for.
    func recentTrainers(since: Date) async throws -> [RecentTrainer]
    /// Each of `authors`' completed workouts performed at or after `since`, oldest first, as the author sees
    /// them (`workoutHistory(of: a, viewer: a, since:)` for each): the histories a reminder sweep reads, in
    /// one pass over the period's workouts instead of one read per person. Authors without any are absent.
    func ownWorkoutHistories(of authors: [UserID], since: Date) async throws -> [UserID: [WorkoutHistoryEntry]]
    /// How many of `author`'s posts `viewer` may see.
    func countVisiblePosts(by author: UserID, viewer: UserID?) async throws -> Int
    /// Posts by `author` created at or after `since`, deleted ones included (for rate limits).
    func countPosts(by author: UserID, since: Date) async throws -> Int
    /// When each of `author`'s posts created at or after `since` was created, deleted ones included, oldest
    /// first: when a rate limit's window frees a place.
    func postTimes(by author: UserID, since: Date) async throws -> [Date]
    /// Whether `author` posted the same text (by hash) at or after `since`.
    func hasPost(by author: UserID, textHash: String, since: Date) async throws -> Bool

    /// Adds a kudos; returns whether it was new (a repeated one changes nothing).
    func addKudos(_ post: PostID, by user: UserID, at date: Date) async throws -> Bool
    /// Removes a kudos; returns whether there was one.
    func removeKudos(_ post: PostID, by user: UserID) async throws -> Bool

    func insertComment(_ comment: CommentRecord) async throws
    func comment(_ id: CommentID) async throws -> CommentRecord?
    func tombstoneComment(_ id: CommentID, at date: Date) async throws
    /// Replaces a comment's text and sets its `edited_at`; a deleted comment stays as it was.
    func editComment(_ id: CommentID, text: String, at date: Date) async throws
    /// A page of a post's comments and replies, oldest first, leaving out deleted ones, suspended authors and
    /// people blocked either way with `viewer`.
    func comments(on post: PostID, viewer: UserID?, after: CommentID?, limit: Int) async throws -> [Comment]

    /// The user's best lifts so far, by exercise key.
    func personalBests(of user: UserID) async throws -> [String: ExerciseBests]
    func savePersonalBests(_ bests: [String: ExerciseBests], of user: UserID) async throws
    /// Makes `bests` the user's only bests: an exercise left out has none any more.
    func replacePersonalBests(_ bests: [String: ExerciseBests], of user: UserID) async throws
    /// Every workout post of `author` in the order it was logged (by id), deleted ones included, with the
    /// records it carries: what personal records are replayed over when an edit changes a workout.
    func loggedWorkouts(of author: UserID) async throws -> [LoggedWorkout]
    /// Replaces the records a post carries, and nothing else: a post whose record an edit of another took away
    /// (or gave) is not itself edited.
    func setRecords(_ records: [PersonalRecord], of post: PostID) async throws
}

/// A post's author and its kudos count as a viewer sees it (`Post.kudosCount`).
public struct KudosTarget: Sendable, Equatable {
    public var author: UserID
    public var kudosCount: Int

    public init(author: UserID, kudosCount: Int) {
        self.author = author
        self.kudosCount = kudosCount
    }
}

/// Which posts a feed is made of. All feeds are newest first by post id (UUIDv7, so by creation time).
public struct FeedQuery: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// The viewer's own posts and those of accounts they follow.
        case following
        /// Every public post the viewer may see (the realtime `community:feed` topic).
        case community
        /// Public posts in the global feed (workouts, notes with a fitness tag, no suppressed duplicates).
        case global
        /// Posts carrying a hashtag.
        case tag(String)
        /// One author's posts (a profile).
        case author(UserID)
        /// The posts in a group, newest first.
        case group(GroupID)
    }

    public var source: Source
    /// Only posts older than this one (the next page).
    public var before: PostID?
    /// Only posts newer than this one (gap fill), returned oldest first.
    public var after: PostID?
    public var limit: Int
    /// When the page is asked for. A store may look among the recent posts first and further back only when
    /// they do not fill the page; `nil` looks at everything at once.
    public var asOf: Date?
    /// For a Following page: the viewer follows at least `manyFollowed` people (`FeedService` asks the kept
    /// count). Such a page walks back through the community's newest posts first, keeping those of people
    /// followed, and reads by author only when that walk comes up short (see `walkFloor`).
    public var followsMany: Bool

    public init(
        source: Source, before: PostID? = nil, after: PostID? = nil, limit: Int, asOf: Date? = nil,
        followsMany: Bool = false
    ) {
        self.source = source
        self.before = before
        self.after = after
        self.limit = limit
        self.asOf = asOf
        self.followsMany = followsMany
    }

    /// From how many people followed a Following page walks the newest posts first. Reading by author costs
    /// an index seek per person followed and every recent post of theirs, so it grew with the people followed
    /// (32 times slower at 5,000 than at 10 on the benchmark's community); the walk costs about a page
    /// divided by the followed people's share of recent posts, which is small for them. Below this, that
    /// share is often too small for the walk to find a page within `walkWindow`.
    public static let manyFollowed = 300

    /// How far back from its cursor, or from `asOf`, the walk of someone who follows many goes before the
    /// page reads by author instead.
    public static let walkWindow: TimeInterval = 86_400

    /// The oldest id the walk reads, when this page walks: a Following page for someone who follows many,
    /// backwards in time, asked as of a time or from a cursor. A page forward in time (`after`) reads by author.
    public var walkFloor: UUID? {
        guard followsMany, after == nil, case .following = source,
            let start = before.map({ UUIDv7.date(of: $0.rawValue) }) ?? asOf
        else { return nil }
        return UUIDv7.lowest(at: start.addingTimeInterval(-Self.walkWindow))
    }

    /// How far back a Following page looks first, from its cursor or from when it is asked for.
    public static let recentWindow: TimeInterval = 30 * 86_400

    /// The oldest id a Following page's first step reads: `recentWindow` before the page's cursor, or before
    /// `asOf` for the newest page; `nil` when there is no first step. A page forward in time (`after`) is
    /// bounded by its cursor already. Both stores read the followed people's posts from this floor on, so
    /// the read stays the same size however long the community's history grows.
    public var recentFloor: UUID? {
        guard after == nil, let start = before.map({ UUIDv7.date(of: $0.rawValue) }) ?? asOf else { return nil }
        return UUIDv7.lowest(at: start.addingTimeInterval(-Self.recentWindow))
    }
}

/// A post as stored.
public struct PostRecord: Sendable, Equatable {
    public var id: PostID
    public var authorID: UserID
    public var kind: PostKind
    public var text: String
    public var visibility: Visibility
    public var workout: WorkoutRecord?
    public var records: [PersonalRecord]
    public var hashtags: [String]
    public var mentions: [String]
    /// SHA-256 of the normalised text, for duplicate suppression.
    public var textHash: String
    /// Whether the post belongs in the global feed (a workout or a fitness-tagged note, not a duplicate).
    public var inGlobal: Bool
    /// When the workout was done (its start), else when the post was made: what ranking ages by.
    public var performedAt: Date
    public var createdAt: Date
    public var editedAt: Date?
    public var deletedAt: Date?
    /// Its photos in order, as posts carry them, with their URLs left empty: those depend on who is looking
    /// (`MediaLinks`).
    public var media: [MediaAttachment]
    /// The group it was posted to; set exactly when `visibility` is `group`.
    public var groupID: GroupID?
    /// The child profiles it names (only ever in a private group: `ChildSafetyPolicy`).
    public var childIDs: [ChildProfileID] = []
    /// Its content sealed on the author's device, in an encrypted group (`text` is empty then).
    public var sealed: SealedContent?

    public init(
        id: PostID, authorID: UserID, kind: PostKind, text: String, visibility: Visibility, workout: WorkoutRecord?,
        records: [PersonalRecord], hashtags: [String], mentions: [String], textHash: String, inGlobal: Bool,
        performedAt: Date, createdAt: Date, editedAt: Date? = nil, deletedAt: Date? = nil,
        media: [MediaAttachment] = [], groupID: GroupID? = nil
    ) {
        self.id = id
        self.authorID = authorID
        self.kind = kind
        self.text = text
        self.visibility = visibility
        self.workout = workout
        self.records = records
        self.hashtags = hashtags
        self.mentions = mentions
        self.textHash = textHash
        self.inGlobal = inGlobal
        self.performedAt = performedAt
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.deletedAt = deletedAt
        self.media = media
        self.groupID = groupID
    }
}

extension PostRecord {
    /// The `visibility` column's text. A group post is stored `private` beside its `group_id`: any read that
    /// knew nothing of groups shows it to its author only, and the visibility rule's group branch opens it to
    /// the members (`VisibilityPolicy`). Both adapters write this and read `group` back when `group_id` is set.
    public var storedVisibility: String { visibility == .group ? Visibility.private.rawValue : visibility.rawValue }
}

/// A comment as stored.
public struct CommentRecord: Sendable, Equatable {
    public var id: CommentID
    public var postID: PostID
    public var parentID: CommentID?
    public var authorID: UserID
    public var text: String
    public var createdAt: Date
    public var editedAt: Date?
    public var deletedAt: Date?
    /// Its text sealed on the author's device, on a post of an encrypted group (`text` is empty then).
    public var sealed: SealedContent? = nil

    public init(
        id: CommentID, postID: PostID, parentID: CommentID?, authorID: UserID, text: String, createdAt: Date,
        editedAt: Date? = nil, deletedAt: Date? = nil
    ) {
        self.id = id
        self.postID = postID
        self.parentID = parentID
        self.authorID = authorID
        self.text = text
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.deletedAt = deletedAt
    }
}

/// Someone who trained lately, and where: reminders go out at their local evening.
public struct RecentTrainer: Sendable, Equatable {
    public var id: UserID
    public var timeZone: String

    public init(id: UserID, timeZone: String) {
        self.id = id
        self.timeZone = timeZone
    }
}

extension PostStore {
    /// Every completed workout of `author` listed for `viewer`, oldest first.
    public func workoutHistory(of author: UserID, viewer: UserID?) async throws -> [WorkoutHistoryEntry] {
        try await workoutHistory(of: author, viewer: viewer, since: nil)
    }
}
