import SpotterModels

/// Who may see a post: the one rule every feed, count, search and realtime push follows.
///
/// - The author always sees their own posts (unless deleted).
/// - Nobody else sees a deleted post, a suspended author's post, or a post of someone they blocked or who
///   blocked them.
/// - A private account's posts never reach beyond its approved followers, whatever the post says.
/// - `public` posts reach everyone; `followers` posts reach accepted followers; `private` posts only the author.
/// - `group` posts reach the group's members, and anyone for an `open` group (anyone may read those), whatever
///   the author's account privacy, except someone the group banned: for them its posts do not exist at all
///   (their pages, the group's feed, kudos, comments, counts, search). A deleted group's posts are deleted with
///   it. Storage keeps a group post's personal visibility `private`, so any read that knew nothing of groups
///   would show it to its author only: the rule fails closed.
///
/// Where a post someone may see is *listed* is the second half of the rule (`isListed`): a muted author's
/// posts stay readable by link, but leave the muter's feeds; and a group post is listed only for its author
/// and the group's members. Everyone else (signed out, a follower of the author who never joined, someone who
/// left, was removed or is banned) may read an open group's post on its page and in the group's feed, and
/// meets it in no other list: not Following, Global, a hashtag, search or a profile.
///
/// Who may see the person behind a post is `PersonPolicy`'s half of the rule. The storage adapters express the
/// same rule in SQL; the contract suite checks them against these functions,
/// and the realtime hub asks them (through `LiveAudience`) for every socket, so a live feed shows what a
/// refresh of the same feed would.
public enum VisibilityPolicy {
    public struct Facts: Sendable, Equatable {
        public var isAuthor: Bool
        public var postDeleted: Bool
        public var authorSuspended: Bool
        public var blockedEitherWay: Bool
        public var followsAuthor: Bool
        public var authorPrivacy: Privacy
        public var visibility: Visibility
        /// The post's group, for a `group` post.
        public var group: GroupFacts?

        public init(
            isAuthor: Bool, postDeleted: Bool, authorSuspended: Bool, blockedEitherWay: Bool, followsAuthor: Bool,
            authorPrivacy: Privacy, visibility: Visibility, group: GroupFacts? = nil
        ) {
            self.isAuthor = isAuthor
            self.postDeleted = postDeleted
            self.authorSuspended = authorSuspended
            self.blockedEitherWay = blockedEitherWay
            self.followsAuthor = followsAuthor
            self.authorPrivacy = authorPrivacy
            self.visibility = visibility
            self.group = group
        }
    }

    /// What a group post's visibility depends on.
    public struct GroupFacts: Sendable, Equatable {
        public var access: GroupAccess
        public var viewerIsMember: Bool
        /// The group banned the viewer: even an open group's posts are closed to them.
        public var viewerIsBanned: Bool

        public init(access: GroupAccess, viewerIsMember: Bool, viewerIsBanned: Bool) {
            self.access = access
            self.viewerIsMember = viewerIsMember
            self.viewerIsBanned = viewerIsBanned
        }
    }

    public static func canSee(_ facts: Facts) -> Bool {
        if facts.postDeleted { return false }
        if facts.isAuthor { return true }
        if facts.authorSuspended || facts.blockedEitherWay { return false }
        switch facts.visibility {
        case .public: return facts.authorPrivacy != .private || facts.followsAuthor
        case .followers: return facts.followsAuthor
        case .private: return false
        case .group:
            guard let group = facts.group else { return false }
            return group.viewerIsMember || (group.access == .open && !group.viewerIsBanned)
        }
    }

    /// The lists a post can stand in.
    public enum Listing: Sendable, Equatable {
        /// Every public post (the Global feed's pool, the realtime `community:feed` topic).
        case community
        /// The viewer's own posts and those of people they follow (`feed:<id>`).
        case following
        /// A hashtag's feed.
        case hashtag
        /// Search results.
        case search
        /// A person's own posts, on their profile.
        case profile
        /// The post on its own (`post:<id>`, `GET /posts/{id}`): nothing but `canSee` applies.
        case single
        /// A group's posts (`group:<id>`, its feed).
        case group(GroupID)
    }

    /// How the viewer stands with the author of a post they may see.
    public struct ListingFacts: Sendable, Equatable {
        public var isAuthor: Bool
        public var followsAuthor: Bool
        public var mutesAuthor: Bool
        public var visibility: Visibility
        /// The group it was posted to, if any.
        public var group: GroupID?
        /// The viewer is a member of `group` (owner, admin or member).
        public var viewerIsMember: Bool

        public init(
            isAuthor: Bool, followsAuthor: Bool, mutesAuthor: Bool, visibility: Visibility, group: GroupID? = nil,
            viewerIsMember: Bool = false
        ) {
            self.isAuthor = isAuthor
            self.followsAuthor = followsAuthor
            self.mutesAuthor = mutesAuthor
            self.visibility = visibility
            self.group = group
            self.viewerIsMember = viewerIsMember
        }
    }

    /// Whether a post the viewer may see (`canSee`) belongs in `listing` for them. Muting hides an author from
    /// the muter's feeds (Following, Global, a hashtag), never from the post's own page, search, the author's
    /// profile or a group's feed (a group is read for the group).
    ///
    /// A group post is listed only for its author and the group's members: for a member it stands in the
    /// Following feed like any post of someone followed, marked with its group, and in hashtags, search and
    /// the author's profile. Nobody else meets it in any list but the group's own feed. The adapters' SQL says
    /// this as one probe of `group_members`'s primary key per group post, and nothing for other posts.
    public static func isListed(_ listing: Listing, _ facts: ListingFacts) -> Bool {
        let groupAllows = facts.group == nil || facts.isAuthor || facts.viewerIsMember
        switch listing {
        case .single: return true
        case .group(let id): return facts.group == id
        case .community: return facts.visibility == .public && !facts.mutesAuthor && groupAllows
        case .following: return (facts.isAuthor || (facts.followsAuthor && !facts.mutesAuthor)) && groupAllows
        case .hashtag: return !facts.mutesAuthor && groupAllows
        case .search, .profile: return groupAllows
        }
    }
}
