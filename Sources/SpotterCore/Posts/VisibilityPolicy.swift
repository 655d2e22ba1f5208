import SpotterModels

/// Who may see a post: the one rule every feed, count, search and realtime push follows.
///
/// - The author always sees their own posts (unless deleted).
/// - Nobody else sees a deleted post, a suspended author's post, or a post of someone they blocked or who
///   blocked them.
/// - A private account's posts never reach beyond its approved followers, whatever the post says.
/// - `public` posts reach everyone; `followers` posts reach accepted followers; `private` posts only the author.
///
/// The storage adapters express the same rule in SQL; the contract suite checks them against this function.
public enum VisibilityPolicy {
    public struct Facts: Sendable, Equatable {
        public var isAuthor: Bool
        public var postDeleted: Bool
        public var authorSuspended: Bool
        public var blockedEitherWay: Bool
        public var followsAuthor: Bool
        public var authorPrivacy: Privacy
        public var visibility: Visibility

        public init(
            isAuthor: Bool, postDeleted: Bool, authorSuspended: Bool, blockedEitherWay: Bool, followsAuthor: Bool,
            authorPrivacy: Privacy, visibility: Visibility
        ) {
            self.isAuthor = isAuthor
            self.postDeleted = postDeleted
            self.authorSuspended = authorSuspended
            self.blockedEitherWay = blockedEitherWay
            self.followsAuthor = followsAuthor
            self.authorPrivacy = authorPrivacy
            self.visibility = visibility
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
        }
    }
}
