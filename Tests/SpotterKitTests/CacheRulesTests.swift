import Foundation
import NIOConcurrencyHelpers
import SpotterKit
import SpotterModels
import Testing

/// The POWR seed's cache rules as the screens meet them (issue 40, item 5), against a real server with a
/// clock the test moves: one cache, the client database, read by the view models.
@Suite("Cache rules")
struct CacheRulesTests {
    static let password = "correct horse battery"

    final class TestClock: Sendable {
        private let current = NIOLockedValueBox(Date())
        var now: @Sendable () -> Date { { self.current.withLockedValue { $0 } } }
        func advance(by seconds: TimeInterval) { current.withLockedValue { $0 += seconds } }
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-rules-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The feed as the client database keeps it: what a screen opened with no network shows.
    static func kept(_ kind: FeedKind, _ session: SpotterSession, _ network: SwitchableNetwork) async -> [String] {
        let state = network.state
        network.state = .down
        defer { network.state = state }
        let screen = await FeedViewModel(kind: kind, session: session)
        await screen.loadInitial()
        return await screen.posts.compactMap(\.text)
    }

    @Test("a feed fetched under 30 s ago shows as kept without asking again; pull to refresh asks")
    func feedFreshness() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's session and two posts of hers
            let transport = CountingTransport()
            let clock = TestClock()
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: transport, now: clock.now)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            for text in ["Squats #legday", "Rows #back"] {
                _ = try await session.client.createPost(CreatePostRequest(kind: .note, text: text))
            }
            let path = "/api/v1/feeds/following"
            // When the feed screen opens, and opens again 29 s later
            let first = await FeedViewModel(kind: .following, session: session)
            await first.loadInitial()
            clock.advance(by: 29)
            let again = await FeedViewModel(kind: .following, session: session)
            await again.loadInitial()
            // Then the second shows the kept feed, without a request
            #expect(await again.posts.map(\.text) == ["Rows #back", "Squats #legday"])
            #expect(transport.count(path) == 1)
            // When it opens after 30 s, and when pulled
            clock.advance(by: 2)
            await FeedViewModel(kind: .following, session: session).loadInitial()
            await again.refresh()
            // Then each asks
            #expect(transport.count(path) == 3)
        }
    }

    @Test("a profile shows as kept, offline too, and is fetched again once a day old or when pulled")
    func profileFreshness() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Given Bea's session looking at Ana's profile
            let ana = try await LiveServer.person("ana", url, password: Self.password)
            _ = try await ana.createPost(CreatePostRequest(kind: .note, text: "Intervals #run"))
            let transport = CountingTransport()
            let clock = TestClock()
            let tokens = MemoryTokenStore()
            let session = try SpotterSession(
                baseURL: url, folder: folder, tokens: tokens, transport: transport, now: clock.now)
            try await session.client.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let path = "/api/v1/users/ana"
            await ProfileViewModel(username: "ana", session: session).load()
            // When it opens again within the day
            clock.advance(by: 23 * 3600)
            let within = await ProfileViewModel(username: "ana", session: session)
            await within.load()
            // Then it is the kept one
            #expect(await within.profile?.username == "ana")
            #expect(transport.count(path) == 1)
            // When a day has passed, and when pulled
            clock.advance(by: 3600 + 1)
            await ProfileViewModel(username: "ana", session: session).load()
            await within.refresh()
            #expect(transport.count(path) == 3)
            // When the app starts again with no network, two days on
            clock.advance(by: 2 * 24 * 3600)
            let offline = try SpotterSession(
                baseURL: url, folder: folder, tokens: tokens, transport: Unreachable(), retry: .none, now: clock.now)
            let screen = await ProfileViewModel(username: "ana", session: offline)
            await screen.load()
            // Then the profile and posts last seen show, stale as they are
            #expect(await screen.profile?.username == "ana")
            #expect(await screen.posts.map(\.text) == ["Intervals #run"])
        }
    }

    @Test("clean-up keeps one's own posts, waits to know who that is, drops loose posts after a day, all after 30")
    func cleanUp() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's session, her post and Bea's in her Following feed, and Cem's post opened on its own
            let clock = TestClock()
            let network = SwitchableNetwork()
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none,
                now: clock.now)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            let cem = try await LiveServer.person("cem", url, password: Self.password)
            _ = try await session.client.follow("bea")
            _ = try await session.client.createPost(CreatePostRequest(kind: .note, text: "Mine #run"))
            _ = try await bea.createPost(CreatePostRequest(kind: .note, text: "Hers #run"))
            let following = await FeedViewModel(kind: .following, session: session)
            await following.loadInitial()
            let loose = try await cem.createPost(CreatePostRequest(kind: .note, text: "Loose #run"))
            let detail = await PostDetailViewModel(postID: loose.id, session: session)
            await detail.load()
            #expect(await detail.post?.text == "Loose #run")

            // When it is due with no network and nobody known: nothing is cleaned
            network.state = .down
            clock.advance(by: 31 * 24 * 3600)
            #expect(await session.maintain() == nil)
            #expect(await Self.kept(.following, session, network).count == 2)

            // When the network is back: it learns who is signed in and cleans, keeping her own post
            network.state = .up
            #expect(await session.maintain() == CacheCleanUp(posts: 2, profiles: 0))
            #expect(await Self.kept(.following, session, network) == ["Mine #run"])
            // And not again within a day
            #expect(await session.maintain() == nil)

            // When a post opened on its own is a day old, while the feed's posts are fresh
            await following.refresh()
            await PostDetailViewModel(postID: loose.id, session: session).load()
            clock.advance(by: 24 * 3600 + 2)
            // Then only it goes
            let second = await session.maintain()
            #expect(second == CacheCleanUp(posts: 1, profiles: 0))
            #expect(await Self.kept(.following, session, network) == ["Hers #run", "Mine #run"])
        }
    }

    @Test("a feed keeps its newest posts up to the limit; live posts on top push the oldest out")
    func feedLimit() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given a feed limited to 3, showing 2 posts
            var policy = CachePolicy()
            policy.itemsPerFeed = 3
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), cachePolicy: policy)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            var posts: [Post] = []
            for text in ["one", "two"] {
                posts.append(try await session.client.createPost(CreatePostRequest(kind: .note, text: text)))
            }
            let feed = await FeedViewModel(kind: .following, session: session)
            await feed.loadInitial()
            // When two live posts are shown on top
            for text in ["three", "four"] {
                await feed.receiveLive(try await session.client.createPost(CreatePostRequest(kind: .note, text: text)))
            }
            await feed.showNewPosts()
            // Then the feed holds the newest three
            #expect(await feed.posts.map(\.text) == ["four", "three", "two"])
        }
    }

    @Test("signing out forgets the person's feed, inbox and queued changes")
    func signOutForgets() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's kept feed and inbox, and a kudos that cannot land (the post is gone)
            let network = SwitchableNetwork()
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            _ = try await session.client.follow("bea")
            let post = try await bea.createPost(CreatePostRequest(kind: .note, text: "Bea's run"))
            let feed = await FeedViewModel(kind: .following, session: session)
            await feed.loadInitial()
            network.state = .down
            _ = try await session.outbox.setKudos(true, on: post.id)
            #expect(await feed.posts.count == 1)
            // When she signs out (offline: the kudos cannot go)
            await session.signOut()
            // Then nothing of hers is kept for the next person
            #expect(try await session.outbox.pending.isEmpty)
            #expect(try await session.database.me() == nil)
            let next = await FeedViewModel(kind: .following, session: session)
            await next.loadInitial()
            #expect(await next.posts.isEmpty)
        }
    }
}
