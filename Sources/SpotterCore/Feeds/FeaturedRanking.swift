import Foundation
import SpotterModels

/// A public post eligible for the Featured feed, with what ranking needs beyond the post itself.
public struct RankingCandidate: Sendable {
    public var post: Post
    /// When the workout was done (else when the post was made): ranking ages from this.
    public var performedAt: Date
    /// Whether an admin features the author.
    public var authorFeatured: Bool

    public init(post: Post, performedAt: Date, authorFeatured: Bool) {
        self.post = post
        self.performedAt = performedAt
        self.authorFeatured = authorFeatured
    }
}

/// Orders the Featured feed: trending public posts by `TrendingScore`, with posts of featured accounts
/// boosted so they lead while they are fresh but still decay like everything else. Pure, so it is tested
/// with plain values.
public enum FeaturedRanking {
    /// How much a featured account's post is worth against an ordinary one with the same reactions and age.
    public static let featuredBoost = 4.0

    public static func score(_ candidate: RankingCandidate, now: Date) -> Double {
        let age = now.timeIntervalSince(candidate.performedAt) / 3600
        let base = TrendingScore.score(
            kudos: candidate.post.kudosCount, comments: candidate.post.commentsCount, ageHours: age)
        return candidate.authorFeatured ? base * featuredBoost : base
    }

    /// Highest score first; ties go to the newer post, then the larger id, so the order is total and stable.
    public static func rank(_ candidates: [RankingCandidate], now: Date) -> [Post] {
        candidates.map { (score: score($0, now: now), candidate: $0) }
            .sorted { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.candidate.performedAt != b.candidate.performedAt {
                    return a.candidate.performedAt > b.candidate.performedAt
                }
                return a.candidate.post.id.description > b.candidate.post.id.description
            }
            .map(\.candidate.post)
    }
}
