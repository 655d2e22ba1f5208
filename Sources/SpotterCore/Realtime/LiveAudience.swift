import Foundation
import SpotterModels

/// Who hears of a change to a post, on which live topic, and what each of them sees of it.
///
/// The realtime hub asks this for every socket an event could reach, and only fans out what it decides: a
/// socket gets an event about a post exactly when a REST refresh of the same list would show that post
/// (`VisibilityPolicy.canSee`, then `VisibilityPolicy.isListed`), and a deletion exactly where the post stood
/// the moment before.
public struct LiveAudience: Sendable {
    let storage: any SpotterStorage
    /// Fills in photo URLs for each viewer; `nil` leaves them empty.
    let links: MediaLinks?

    public init(storage: any SpotterStorage, links: MediaLinks? = nil) {
        self.storage = storage
        self.links = links
    }

    /// The audience of an event about a post that exists: a new post, an edit, new counts. `nil` when the
    /// post is gone (the event came late), so nobody hears of it.
    public func ofPost(_ id: PostID) async throws -> PostAudience? {
        // The anonymous view names the author; only a post not everyone may see needs its record read.
        var shared = try await storage.posts.post(id, viewer: nil)
        if let post = shared, let links { shared = try await links.linked(post) }
        let author: UserID
        let group: GroupID?
        var followersShare = false
        if let shared {
            author = shared.author.id
            group = shared.group?.id
        } else {
            guard let record = try await storage.posts.record(id), record.deletedAt == nil else { return nil }
            author = record.authorID
            group = record.groupID
            followersShare = record.groupID == nil && record.visibility != .private
        }
        let shares = shared != nil || followersShare
        // Anyone may read an open group's post but the people it banned: they never share the anonymous view.
        let banned: Set<UserID> =
            if let group, shared != nil { Set(try await storage.groups.bans(for: group).map(\.account.id)) } else { [] }
        return PostAudience(
            storage: storage, links: links, id: id, author: author, group: group, shared: shared,
            followersShare: followersShare, peopleInBlocks: shares ? try await storage.graph.peopleInBlocks() : [],
            bannedFromGroup: banned, kudosGivers: shares ? try await storage.posts.kudosGivers(of: id) : [],
            muters: try await storage.graph.muters(of: author))
    }

    /// The audience of a post's deletion: everyone who could see it just before, on the lists it stood in.
    /// The post is read as stored (deleted) and judged by the policy as it was before.
    public func ofDeletedPost(_ id: PostID) async throws -> DeletedPostAudience? {
        guard let record = try await storage.posts.record(id),
            let author = try await storage.accounts.find(id: record.authorID)
        else { return nil }
        var group: DeletedPostAudience.GroupAudience?
        if let groupID = record.groupID {
            // A deleted group's posts go with it: its members hear of nothing more (their access ended first).
            guard let found = try await storage.groups.find(groupID) else { return nil }
            group = .init(
                id: groupID, access: found.access, members: Set(try await storage.groups.memberRoles(of: groupID).keys),
                banned: Set(try await storage.groups.bans(for: groupID).map(\.account.id)))
        }
        return DeletedPostAudience(
            id: id, author: author, visibility: record.visibility, group: group,
            blocked: try await storage.graph.blockedEitherWay(with: author.id),
            followers: try await storage.graph.followerIDs(of: author.id),
            muters: try await storage.graph.muters(of: author.id))
    }
}

/// One event's decisions about one post, with what they read kept for the next socket.
///
/// A post everyone may see looks the same to everyone who has no block with anyone (and, for an open group's
/// post, whom the group did not ban), but for `kudosed_by_me` (blocks are the only viewer-dependent filter of
/// its counts): those viewers share one view, so a fan-out to 10,000 sockets reads the post once. A post only
/// followers see (followers-only, or by a private account, in no group) looks the same to every accepted
/// follower outside blocks: it is read once, as the first of them, and they share that view. People in blocks, and everyone else, are read viewer by viewer, through the
/// adapters' SQL statement of the rule.
public struct PostAudience: Sendable {
    let storage: any SpotterStorage
    let links: MediaLinks?
    public let id: PostID
    let author: UserID
    /// The group it was posted to, if any.
    let group: GroupID?
    /// The anonymous view, shared by everyone outside `peopleInBlocks` and `bannedFromGroup`; `nil` when not
    /// everyone may see it.
    public let shared: Post?
    /// Whether the author's accepted followers outside `peopleInBlocks` share one view (`followersView`).
    let followersShare: Bool
    /// The followers' shared view, read as the first of them to ask; `nil` until then.
    public private(set) var followersView: Post?
    private var followersViewRead = false
    let peopleInBlocks: Set<UserID>
    /// Whom the post's open group banned: for them it does not exist.
    let bannedFromGroup: Set<UserID>
    let kudosGivers: Set<UserID>
    let muters: Set<UserID>
    private var followers: Set<UserID>?
    private var members: Set<UserID>?
    private var views: [UserID: Post?] = [:]

    init(
        storage: any SpotterStorage, links: MediaLinks?, id: PostID, author: UserID, group: GroupID?, shared: Post?,
        followersShare: Bool, peopleInBlocks: Set<UserID>, bannedFromGroup: Set<UserID>, kudosGivers: Set<UserID>,
        muters: Set<UserID>
    ) {
        self.storage = storage
        self.links = links
        self.id = id
        self.author = author
        self.group = group
        self.shared = shared
        self.followersShare = followersShare
        self.peopleInBlocks = peopleInBlocks
        self.bannedFromGroup = bannedFromGroup
        self.kudosGivers = kudosGivers
        self.muters = muters
    }

    /// What a viewer gets: the shared view or the followers' (with their own kudos state), or a view of their
    /// own.
    public enum View: Sendable {
        case shared(kudosedByMe: Bool)
        case followers(kudosedByMe: Bool)
        case own(Post)
    }

    /// What `viewer` gets of the post on `topic`, or `nil` when it is not for them there.
    public mutating func view(of viewer: UserID, on topic: RealtimeTopic) async throws -> View? {
        guard let listing = Self.listing(of: topic, post: id) else { return nil }
        let post: Post
        let view: View
        if let shared, !peopleInBlocks.contains(viewer), !bannedFromGroup.contains(viewer) {
            (post, view) = (shared, .shared(kudosedByMe: kudosGivers.contains(viewer)))
        } else if followersShare, viewer != author, !peopleInBlocks.contains(viewer) {
            // Outside blocks, only the author's accepted followers may see a post the anonymous view lacks:
            // nobody else's view needs reading.
            guard try await followerIDs().contains(viewer), let common = try await followersView(readAs: viewer)
            else { return nil }
            (post, view) = (common, .followers(kudosedByMe: kudosGivers.contains(viewer)))
        } else {
            if views[viewer] == nil {
                var own = try await storage.posts.post(id, viewer: viewer)
                if let post = own, let links { own = try await links.linked(post) }
                views[viewer] = .some(own)
            }
            guard let own = views[viewer] ?? nil else { return nil }
            (post, view) = (own, .own(own))
        }
        let follows = listing == .following && viewer != author ? try await followerIDs().contains(viewer) : false
        // Of the lists a topic shows, only Following can hold a group post for someone but its author (the
        // community topic lists public posts only), so only a follower's asks who is a member.
        let member = follows && group != nil ? try await memberIDs().contains(viewer) : false
        let facts = VisibilityPolicy.ListingFacts(
            isAuthor: viewer == author, followsAuthor: follows, mutesAuthor: muters.contains(viewer),
            visibility: post.visibility, group: post.group?.id, viewerIsMember: member)
        return VisibilityPolicy.isListed(listing, facts) ? view : nil
    }

    /// The members of the post's group, read once per event and only when a follower's Following feed asks.
    private mutating func memberIDs() async throws -> Set<UserID> {
        if let members { return members }
        guard let group else { return [] }
        let read = Set(try await storage.groups.memberRoles(of: group).keys)
        members = read
        return read
    }

    /// The followers' shared view, read as `viewer` (an accepted follower outside blocks) the first time.
    private mutating func followersView(readAs viewer: UserID) async throws -> Post? {
        if followersViewRead { return followersView }
        var read = try await storage.posts.post(id, viewer: viewer)
        if let post = read, let links { read = try await links.linked(post) }
        (followersView, followersViewRead) = (read, true)
        return read
    }

    /// The author's followers, read once per event and only when a Following feed asks.
    private mutating func followerIDs() async throws -> Set<UserID> {
        if let followers { return followers }
        let read = try await storage.graph.followerIDs(of: author)
        followers = read
        return read
    }

    /// The list a topic shows, for events about `post`; `nil` for topics that never carry it.
    static func listing(of topic: RealtimeTopic, post: PostID) -> VisibilityPolicy.Listing? {
        switch topic {
        case .communityFeed: .community
        // Only a feed's owner may join it (`TopicAccess`), so the socket's user is the feed's owner.
        case .followingFeed: .following
        case .post(let id): id == post ? .single : nil
        case .group(let id): .group(id)
        case .user: nil
        }
    }
}

/// Who hears that a post was deleted: the policy applied to the post as it was, for each socket.
public struct DeletedPostAudience: Sendable {
    public let id: PostID
    let author: AccountRecord
    let visibility: Visibility
    /// The post's group, for a group post.
    let group: GroupAudience?
    let blocked: Set<UserID>
    let followers: Set<UserID>
    let muters: Set<UserID>

    struct GroupAudience: Sendable {
        let id: GroupID
        let access: GroupAccess
        let members: Set<UserID>
        let banned: Set<UserID>
    }

    public func reaches(_ viewer: UserID, on topic: RealtimeTopic) -> Bool {
        guard let listing = PostAudience.listing(of: topic, post: id) else { return false }
        let isAuthor = viewer == author.id
        let follows = followers.contains(viewer)
        let couldSee = VisibilityPolicy.canSee(
            .init(
                isAuthor: isAuthor, postDeleted: false, authorSuspended: author.suspendedAt != nil,
                blockedEitherWay: blocked.contains(viewer), followsAuthor: follows,
                authorPrivacy: author.profile.privacy, visibility: visibility,
                group: group.map {
                    .init(
                        access: $0.access, viewerIsMember: $0.members.contains(viewer),
                        viewerIsBanned: $0.banned.contains(viewer))
                }))
        return couldSee
            && VisibilityPolicy.isListed(
                listing,
                .init(
                    isAuthor: isAuthor, followsAuthor: follows, mutesAuthor: muters.contains(viewer),
                    visibility: visibility, group: group?.id,
                    viewerIsMember: group?.members.contains(viewer) ?? false))
    }
}
