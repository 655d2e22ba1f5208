import Foundation
import SpotterModels

/// A group post as the "top" order weighs it: what the group's own members made of it, and whether this
/// member has seen it. Only what ranking needs: the page's posts are read whole once ranked.
public struct GroupRankingCandidate: Sendable, Equatable {
    public var id: PostID
    public var author: UserID
    /// When the workout was done (else when the post was made).
    public var performedAt: Date
    /// Kudos and comments by people who are members now (an open group's visitors react too, but the ranking
    /// is the group's own).
    public var memberKudos: Int
    public var memberComments: Int

    public init(id: PostID, author: UserID, performedAt: Date, memberKudos: Int, memberComments: Int) {
        self.id = id
        self.author = author
        self.performedAt = performedAt
        self.memberKudos = memberKudos
        self.memberComments = memberComments
    }
}

/// The group feed's "top" order (the MyTube ranking idea): the trending score of members' reactions and age
/// (`TrendingScore`), doubled for a post this member has not seen yet, so what is new to them rises without
/// burying what the group is talking about. A member's own posts count as seen.
///
/// ```swift
/// let top = GroupFeedRanking.rank(candidates, viewer: me.id, seenUpTo: marker, now: now)
/// ```
public enum GroupFeedRanking {
    /// How much more a post the member has not seen weighs.
    public static let unseenBoost = 2.0

    public static func score(
        memberKudos: Int, memberComments: Int, ageHours: Double, unseen: Bool
    ) -> Double {
        TrendingScore.score(kudos: memberKudos, comments: memberComments, ageHours: ageHours)
            * (unseen ? unseenBoost : 1)
    }

    /// Whether a post by `author` is new to `viewer`, who has seen the group's posts up to `seenUpTo` (ids are
    /// time-ordered; `nil` has seen nothing).
    public static func isUnseen(_ post: PostID, by author: UserID, viewer: UserID?, seenUpTo: PostID?) -> Bool {
        guard author != viewer else { return false }
        guard let seenUpTo else { return true }
        return post.description > seenUpTo.description
    }

    /// The candidates' ids, best first; equal scores newest first.
    public static func rank(
        _ candidates: [GroupRankingCandidate], viewer: UserID?, seenUpTo: PostID?, now: Date
    ) -> [PostID] {
        candidates.map { candidate in
            let age = now.timeIntervalSince(candidate.performedAt) / 3600
            let unseen = isUnseen(candidate.id, by: candidate.author, viewer: viewer, seenUpTo: seenUpTo)
            return (
                candidate.id,
                score(
                    memberKudos: candidate.memberKudos, memberComments: candidate.memberComments, ageHours: age,
                    unseen: unseen)
            )
        }
        .sorted { lhs, rhs in
            lhs.1 != rhs.1 ? lhs.1 > rhs.1 : lhs.0.description > rhs.0.description
        }
        .map(\.0)
    }
}
