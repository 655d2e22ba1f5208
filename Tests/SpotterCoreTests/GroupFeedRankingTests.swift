import Foundation
import SpotterCore
import SpotterModels
import Testing

@Suite("Group feed ranking")
struct GroupFeedRankingTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let me = UserID.generate()
    static let other = UserID.generate()

    static func candidate(
        hoursAgo: Double, kudos: Int = 0, comments: Int = 0, by author: UserID = other
    ) -> GroupRankingCandidate {
        let made = now.addingTimeInterval(-hoursAgo * 3600)
        return GroupRankingCandidate(
            id: .generate(at: made), author: author, performedAt: made, memberKudos: kudos, memberComments: comments)
    }

    @Test("members' reactions lift a post, and age brings it down")
    func reactionsAndAge() {
        let quiet = Self.candidate(hoursAgo: 2)
        let liked = Self.candidate(hoursAgo: 3, kudos: 5)
        let old = Self.candidate(hoursAgo: 48, kudos: 5)
        let ranked = GroupFeedRanking.rank([quiet, liked, old], viewer: Self.me, seenUpTo: nil, now: Self.now)
        #expect(ranked == [liked.id, quiet.id, old.id])
    }

    @Test("a comment weighs as two kudos; equal scores go newest first")
    func comments() {
        let commented = Self.candidate(hoursAgo: 5, comments: 1)
        let kudosed = Self.candidate(hoursAgo: 5, kudos: 2)
        #expect(
            GroupFeedRanking.score(memberKudos: 0, memberComments: 1, ageHours: 5, unseen: false)
                == GroupFeedRanking.score(memberKudos: 2, memberComments: 0, ageHours: 5, unseen: false))
        let ranked = GroupFeedRanking.rank([commented, kudosed], viewer: Self.me, seenUpTo: nil, now: Self.now)
        #expect(ranked.first == [commented.id, kudosed.id].max { $0.description < $1.description })
    }

    @Test("what this member has not seen weighs double; their own posts count as seen")
    func unseen() {
        let older = Self.candidate(hoursAgo: 6, kudos: 5)
        let newer = Self.candidate(hoursAgo: 1)
        let mine = Self.candidate(hoursAgo: 1, by: Self.me)
        // Seen everything: the older post's kudos win.
        #expect(
            GroupFeedRanking.rank([older, newer], viewer: Self.me, seenUpTo: newer.id, now: Self.now)
                == [older.id, newer.id])
        // Seen only the older one: the newer one, unseen, rises above it.
        #expect(
            GroupFeedRanking.rank([older, newer], viewer: Self.me, seenUpTo: older.id, now: Self.now)
                == [newer.id, older.id])
        // My own post never counts as new to me, even past my marker.
        #expect(
            GroupFeedRanking.rank([older, mine], viewer: Self.me, seenUpTo: older.id, now: Self.now)
                == [older.id, mine.id])
        #expect(!GroupFeedRanking.isUnseen(mine.id, by: Self.me, viewer: Self.me, seenUpTo: nil))
        #expect(GroupFeedRanking.isUnseen(newer.id, by: Self.other, viewer: Self.me, seenUpTo: nil))
        #expect(!GroupFeedRanking.isUnseen(newer.id, by: Self.other, viewer: nil, seenUpTo: newer.id))
    }

    @Test("a clock running behind never lifts a post above a brand new one")
    func skew() {
        #expect(
            GroupFeedRanking.score(memberKudos: 0, memberComments: 0, ageHours: -5, unseen: false)
                == GroupFeedRanking.score(memberKudos: 0, memberComments: 0, ageHours: 0, unseen: false))
    }
}
