import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// Someone who follows `FeedQuery.manyFollowed` people or more reads the Following feed another way (a walk
/// through the newest posts first, by author past the walk's day). The pages must be the same posts, in the same
/// order, with the same rules, as anyone else's.
@Suite("Following feed for someone who follows many")
struct FollowsManyFeedTests {
    static let start = BulkLoadingContractTests.start
    static let day: Double = 24 * 60

    @Test(
        "every page holds exactly the visible posts of the people followed, newest first",
        arguments: StorageBackend.available)
    func pagesMatchTheRules(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let bulk = try #require(storage as? any BulkLoading)
            // Given me, following more than the threshold (one of them muted, one blocking me) and not following
            // twenty busy strangers…
            let me = BulkLoadingContractTests.account("me")
            let followed = (0..<(FeedQuery.manyFollowed + 20)).map {
                BulkLoadingContractTests.account("followed\($0)")
            }
            let strangers = (0..<20).map { BulkLoadingContractTests.account("stranger\($0)") }
            try await bulk.loadAccounts([me] + followed + strangers)
            try await bulk.loadFollows(followed.map { (me.id, $0.id, Self.start) })
            let (muted, blocker) = (followed[3], followed[7])
            try await storage.graph.mute(me.id, muted.id, at: Self.start)
            try await storage.graph.block(blocker.id, me.id, at: Self.start)
            // …and posts over three days: each person followed posts twice (every tenth one for followers
            // only), strangers post ten times as much, and I post too.
            var posts: [PostRecord] = []
            for minute in stride(from: 0.0, to: 3 * Self.day, by: 3) {
                let step = Int(minute / 3)
                let author =
                    step % 11 == 0
                    ? followed[(step / 11) % followed.count] : step % 97 == 5 ? me : strangers[step % strangers.count]
                let visibility: Visibility = step % 110 == 0 ? .followers : .public
                posts.append(
                    BulkLoadingContractTests.post(
                        by: author, minutes: minute, text: "p\(step)", visibility: visibility))
            }
            try await bulk.loadPosts(posts)
            try await bulk.analyze()
            let hidden: Set<UserID> = [muted.id, blocker.id]
            let shown = Set(followed.map(\.id) + [me.id]).subtracting(hidden)
            let expected = posts.filter { shown.contains($0.authorID) }.map(\.id).reversed()
            #expect(try await storage.graph.counts(of: me.id).following >= FeedQuery.manyFollowed)

            // When I page through my Following feed as of just after the last post…
            let clock = ManualClock(Self.start.addingTimeInterval(3 * Self.day * 60 + 60))
            let feeds = FeedService(storage: storage, clock: clock)
            var seen: [PostID] = []
            var cursor: String?
            repeat {
                let page = try await feeds.following(
                    viewer: me, page: try PageRequest(limit: "20", cursor: cursor, since: nil))
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil

            // Then I saw every post of the people I follow, mine, none of the muted or blocking person's, and
            // no stranger's, in order: the walk's first day and the pages by author after it agree.
            #expect(seen == Array(expected))
            #expect(seen.count > 100)
        }
    }
}
