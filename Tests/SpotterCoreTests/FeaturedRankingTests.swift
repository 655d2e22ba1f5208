import Foundation
import SpotterCore
import SpotterModels
import Testing

@Suite("Featured ranking")
struct FeaturedRankingTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func candidate(
        _ name: String, kudos: Int = 0, comments: Int = 0, hoursAgo: Double, featured: Bool = false
    ) -> RankingCandidate {
        let author = AuthorSummary(id: .generate(), username: name, displayName: name, avatarURL: nil)
        let post = Post(
            id: .generate(at: now), kind: .note, author: author, text: name, visibility: .public, workout: nil,
            hashtags: [], mentions: [], personalRecords: [], createdAt: now, editedAt: nil, kudosCount: kudos,
            commentsCount: comments, kudosPreview: [], kudosedByMe: false)
        return RankingCandidate(post: post, performedAt: now - hoursAgo * 3600, authorFeatured: featured)
    }

    func order(_ candidates: [RankingCandidate]) -> [String] {
        FeaturedRanking.rank(candidates, now: Self.now).map(\.text)
    }

    @Test("more reactions rank higher at the same age, and comments weigh more than kudos")
    func engagement() {
        #expect(
            order([Self.candidate("quiet", hoursAgo: 2), Self.candidate("loved", kudos: 5, hoursAgo: 2)]) == [
                "loved", "quiet",
            ])
        #expect(
            order([Self.candidate("kudos", kudos: 2, hoursAgo: 2), Self.candidate("talk", comments: 2, hoursAgo: 2)])
                == ["talk", "kudos"])
    }

    @Test("a workout done a week ago ranks below today's, however recently it was uploaded")
    func agesFromWhenDone() {
        #expect(
            order([Self.candidate("old session", kudos: 3, hoursAgo: 7 * 24), Self.candidate("today", hoursAgo: 1)])
                == ["today", "old session"])
    }

    @Test("featured accounts lead at equal reactions and age, but still decay")
    func featuredBoost() {
        #expect(
            order([Self.candidate("member", hoursAgo: 3), Self.candidate("coach", hoursAgo: 3, featured: true)]) == [
                "coach", "member",
            ])
        #expect(
            order([
                Self.candidate("fresh", kudos: 2, hoursAgo: 1),
                Self.candidate("stale coach", hoursAgo: 200, featured: true),
            ]) == ["fresh", "stale coach"])
    }

    @Test("equal scores order by newer first, deterministically")
    func ties() {
        let a = Self.candidate("a", hoursAgo: 5)
        let b = Self.candidate("b", hoursAgo: 4)
        #expect(order([a, b]) == ["b", "a"])
        #expect(order([b, a]) == ["b", "a"])
    }
}
