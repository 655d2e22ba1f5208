import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// A profile's followers, following and posts counts are kept by triggers and corrected at read time (issue 8):
/// on both databases each must always equal the length of the list it counts, as the same viewer gets it.
@Suite("People count storage contract")
struct PeopleCountContractTests {
    static let start = SocialContractTests.start

    /// Followers and following as counted, and as listed (with no viewer, whose blocks would filter lists).
    static func follows(_ storage: any SpotterStorage, of user: AccountRecord) async throws -> [Int] {
        let counts = try await storage.graph.counts(of: user.id)
        let followers = try await storage.graph.followers(
            of: user.id, state: .accepted, viewer: nil, after: nil, limit: 100)
        let following = try await storage.graph.following(of: user.id, viewer: nil, after: nil, limit: 100)
        return [counts.followers, followers.count, counts.following, following.count]
    }

    /// The author's posts as counted for the viewer, and as their profile feed lists them for the viewer.
    static func posts(
        _ storage: any SpotterStorage, by author: AccountRecord, viewer: AccountRecord?
    ) async throws
        -> [Int]
    {
        let counted = try await storage.posts.countVisiblePosts(by: author.id, viewer: viewer?.id)
        let listed = try await storage.posts.feed(FeedQuery(source: .author(author.id), limit: 50), viewer: viewer?.id)
        return [counted, listed.count]
    }

    @Test(
        "followers and following follow follows, requests accepted, unfollows, blocks and suspensions",
        arguments: StorageBackend.available)
    func followCountsAreKept(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let coach = try await SocialContractTests.user(storage, "coach")
            var members: [AccountRecord] = []
            for index in 0..<6 { members.append(try await SocialContractTests.user(storage, "member\(index)")) }
            #expect(try await Self.follows(storage, of: coach) == [0, 0, 0, 0])

            for member in members {
                _ = try await storage.graph.follow(member.id, coach.id, state: .accepted, at: Self.start)
            }
            _ = try await storage.graph.follow(coach.id, members[0].id, state: .accepted, at: Self.start)
            // Following again changes nothing.
            _ = try await storage.graph.follow(members[0].id, coach.id, state: .accepted, at: Self.start)
            #expect(try await Self.follows(storage, of: coach) == [6, 6, 1, 1])
            #expect(try await Self.follows(storage, of: members[0]) == [1, 1, 1, 1])

            // A request counts once accepted, singly or all at once.
            let private1 = try await SocialContractTests.user(storage, "private1", privacy: .private)
            for member in members[0..<3] {
                _ = try await storage.graph.follow(member.id, private1.id, state: .pending, at: Self.start)
            }
            #expect(try await Self.follows(storage, of: private1) == [0, 0, 0, 0])
            #expect(try await storage.graph.acceptFollow(members[0].id, private1.id))
            #expect(try await Self.follows(storage, of: private1) == [1, 1, 0, 0])
            try await storage.graph.acceptPendingFollows(of: private1.id)
            #expect(try await Self.follows(storage, of: private1) == [3, 3, 0, 0])
            #expect(try await Self.follows(storage, of: members[1]) == [0, 0, 2, 2])

            // Unfollowing, and a block, which ends follows both ways.
            #expect(try await storage.graph.unfollow(members[5].id, coach.id))
            #expect(try await storage.graph.unfollow(members[5].id, coach.id) == false)
            try await storage.graph.block(coach.id, members[0].id, at: Self.start)
            #expect(try await Self.follows(storage, of: coach) == [4, 4, 0, 0])
            #expect(try await Self.follows(storage, of: members[0]) == [0, 0, 1, 1])

            // A suspended follower is not counted while suspended, either way round.
            try await storage.accounts.setSuspended(members[1].id, at: Self.start)
            #expect(try await Self.follows(storage, of: coach) == [3, 3, 0, 0])
            #expect(try await Self.follows(storage, of: private1) == [2, 2, 0, 0])
            _ = try await storage.graph.follow(coach.id, members[1].id, state: .accepted, at: Self.start)
            #expect(try await Self.follows(storage, of: coach) == [3, 3, 0, 0])
            try await storage.accounts.setSuspended(members[1].id, at: nil)
            #expect(try await Self.follows(storage, of: coach) == [4, 4, 1, 1])
        }
    }

    @Test(
        "posts counts follow posts, edits of visibility and deletions, for the author, followers and others",
        arguments: StorageBackend.available)
    func postCountsAreKept(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await SocialContractTests.user(storage, "ana")
            let fan = try await SocialContractTests.user(storage, "fan")
            let stranger = try await SocialContractTests.user(storage, "stranger")
            _ = try await storage.graph.follow(fan.id, ana.id, state: .accepted, at: Self.start)
            func counts() async throws -> [[Int]] {
                var all: [[Int]] = []
                for viewer in [ana, fan, stranger, nil] as [AccountRecord?] {
                    all.append(try await Self.posts(storage, by: ana, viewer: viewer))
                }
                return all
            }
            #expect(try await counts() == [[0, 0], [0, 0], [0, 0], [0, 0]])

            var posts: [PostRecord] = []
            for (index, visibility) in [Visibility.public, .public, .public, .followers, .followers, .private]
                .enumerated()
            {
                posts.append(
                    try await SocialContractTests.post(
                        storage, by: ana, "post \(index)", visibility: visibility, at: Self.start + Double(index)))
            }
            // The author sees all six, a follower the five not private, anyone else the three public.
            #expect(try await counts() == [[6, 6], [5, 5], [3, 3], [3, 3]])

            // An edit that makes a public post followers-only, and one that changes only the text.
            var edited = posts[0]
            edited.visibility = .followers
            try await storage.posts.update(edited)
            var retexted = posts[1]
            retexted.text = "post 1, edited"
            try await storage.posts.update(retexted)
            #expect(try await counts() == [[6, 6], [5, 5], [2, 2], [2, 2]])

            // Deleted posts leave every count, and deleting twice takes one away once.
            try await storage.posts.tombstone(posts[3].id, at: Self.start + 10)
            try await storage.posts.tombstone(posts[3].id, at: Self.start + 11)
            try await storage.posts.tombstone(posts[5].id, at: Self.start + 10)
            #expect(try await counts() == [[4, 4], [4, 4], [2, 2], [2, 2]])

            // A private account shows others nothing but its followers' share; blocks and suspension, nothing.
            try await storage.accounts.updateProfile(
                ana.id, displayName: "Ana", profile: ProfileFields(privacy: .private))
            #expect(try await counts() == [[4, 4], [4, 4], [0, 0], [0, 0]])
            try await storage.accounts.updateProfile(ana.id, displayName: "Ana", profile: ProfileFields())
            try await storage.graph.block(ana.id, stranger.id, at: Self.start)
            #expect(try await counts() == [[4, 4], [4, 4], [0, 0], [2, 2]])
            try await storage.accounts.setSuspended(ana.id, at: Self.start)
            #expect(try await Self.posts(storage, by: ana, viewer: fan) == [0, 0])
            #expect(try await Self.posts(storage, by: ana, viewer: ana) == [4, 4])

            // Someone who never posted.
            #expect(try await Self.posts(storage, by: fan, viewer: stranger) == [0, 0])
        }
    }

    @Test(
        "follows and posts made before counts were kept are counted once the database is migrated",
        arguments: StorageBackend.available)
    func peopleCountsAreBackfilled(backend: StorageBackend) async throws {
        try await backend.withStorage(migratedBefore: "2026-11-24 people counted") { storage in
            let ana = try await SocialContractTests.user(storage, "ana")
            let bea = try await SocialContractTests.user(storage, "bea")
            let cai = try await SocialContractTests.user(storage, "cai", privacy: .private)
            _ = try await storage.graph.follow(bea.id, ana.id, state: .accepted, at: Self.start)
            _ = try await storage.graph.follow(cai.id, ana.id, state: .accepted, at: Self.start)
            _ = try await storage.graph.follow(ana.id, cai.id, state: .pending, at: Self.start)
            _ = try await SocialContractTests.post(storage, by: ana, "one", visibility: .public)
            _ = try await SocialContractTests.post(storage, by: ana, "two", visibility: .followers, at: Self.start + 1)
            let gone = try await SocialContractTests.post(storage, by: ana, "three", at: Self.start + 2)
            try await storage.posts.tombstone(gone.id, at: Self.start + 3)
            try await storage.migrate()
            #expect(try await Self.follows(storage, of: ana) == [2, 2, 0, 0])
            #expect(try await Self.follows(storage, of: cai) == [0, 0, 1, 1])
            #expect(try await Self.posts(storage, by: ana, viewer: bea) == [2, 2])
            #expect(try await Self.posts(storage, by: ana, viewer: nil) == [1, 1])
            // From there the kept counts go on.
            #expect(try await storage.graph.acceptFollow(ana.id, cai.id))
            _ = try await SocialContractTests.post(storage, by: ana, "four", at: Self.start + 4)
            #expect(try await Self.follows(storage, of: ana) == [2, 2, 1, 1])
            #expect(try await Self.posts(storage, by: ana, viewer: nil) == [2, 2])
        }
    }
}
