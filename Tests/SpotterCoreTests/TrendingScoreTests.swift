import SpotterCore
import Testing

@Suite("Trending score")
struct TrendingScoreTests {
    @Test("the score is (kudos + 2 × comments + 1) / (age in hours + 2)^1.5")
    func formula() {
        // Given 3 kudos and 1 comment, 2 hours old: (3 + 2 + 1) / 4^1.5 = 6 / 8
        // When
        let score = TrendingScore.score(kudos: 3, comments: 1, ageHours: 2)
        // Then
        #expect(score == 0.75)
    }

    @Test("at equal age, more kudos ranks higher")
    func moreKudosRanksHigher() {
        #expect(
            TrendingScore.score(kudos: 10, comments: 2, ageHours: 5)
                > TrendingScore.score(kudos: 9, comments: 2, ageHours: 5))
    }

    @Test("at equal counts, a newer post ranks higher")
    func newerRanksHigher() {
        #expect(
            TrendingScore.score(kudos: 10, comments: 2, ageHours: 1)
                > TrendingScore.score(kudos: 10, comments: 2, ageHours: 1.5))
    }

    @Test("a comment weighs more than a kudos, as much as two")
    func commentOutweighsKudos() {
        #expect(
            TrendingScore.score(kudos: 0, comments: 1, ageHours: 3)
                > TrendingScore.score(kudos: 1, comments: 0, ageHours: 3))
        #expect(
            TrendingScore.score(kudos: 0, comments: 1, ageHours: 3)
                == TrendingScore.score(kudos: 2, comments: 0, ageHours: 3))
    }

    @Test("a negative age, from clock skew, counts as zero")
    func negativeAgeIsZero() {
        // Given a post whose workout starts an hour in the future
        // When
        let skewed = TrendingScore.score(kudos: 4, comments: 0, ageHours: -1)
        // Then it scores as a brand new post, not higher
        #expect(skewed == TrendingScore.score(kudos: 4, comments: 0, ageHours: 0))
        #expect(abs(skewed - 5 / (2 * 2.0.squareRoot())) < 1e-12)
    }

    @Test("a new post nobody has reacted to still scores above zero")
    func newPostIsVisible() {
        #expect(TrendingScore.score(kudos: 0, comments: 0, ageHours: 0) > 0)
    }

    @Test("age wins in the end: a day-old hit ranks below a fresh post with a tenth of its kudos")
    func ageWins() {
        #expect(
            TrendingScore.score(kudos: 100, comments: 0, ageHours: 24)
                < TrendingScore.score(kudos: 10, comments: 0, ageHours: 1))
    }
}
