import Foundation
import NIOConcurrencyHelpers
import SpotterKit
import SpotterModels
import Testing

/// The screens read the client database and the network refreshes it (issue 23).
@Suite("Offline first")
struct OfflineFirstTests {
    static let password = "correct horse battery"

    @Test("a cold start without a network shows the last feed, and the post it holds")
    func coldStartOffline() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            // Given a session that loaded Ana's feed into its folder
            let tokens = MemoryTokenStore()
            let online = try SpotterSession(baseURL: url, folder: folder, tokens: tokens)
            try await online.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            for text in ["Squats #legday", "Rows #back", "Intervals #run"] {
                _ = try await online.client.createPost(CreatePostRequest(kind: .note, text: text))
            }
            let before = await FeedViewModel(kind: .following, session: online)
            await before.loadInitial()
            #expect(await before.posts.map(\.text) == ["Intervals #run", "Rows #back", "Squats #legday"])

            // When the app starts again on that folder a minute later (the kept feed is stale), and no request
            // gets through
            let offline = try SpotterSession(
                baseURL: url, folder: folder, tokens: tokens, transport: Unreachable(), retry: .none,
                now: { Date() + 60 })
            let feed = await FeedViewModel(kind: .following, session: offline)
            await feed.loadInitial()

            // Then the feed shows what was kept, and says it is offline
            #expect(await feed.posts.map(\.text) == ["Intervals #run", "Rows #back", "Squats #legday"])
            #expect(await feed.errorMessage == "You're offline. Showing what was loaded.")
            let first = try #require(await feed.posts.first)
            let detail = await PostDetailViewModel(postID: first.id, session: offline)
            await detail.load()
            #expect(await detail.post?.text == "Intervals #run")
        }
    }

    /// Bea, who follows Ana, with her Following feed and Ana's new post on screen; the network can be switched.
    static func beaWatchingAnasPost(
        _ text: String, url: URL
    ) async throws -> (
        ana: SpotterClient, network: SwitchableNetwork, session: SpotterSession, post: Post, feed: FeedViewModel,
        detail: PostDetailViewModel
    ) {
        let ana = SpotterClient(baseURL: url)
        try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
        let network = SwitchableNetwork()
        let session = try SpotterSession(
            baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
        try await session.client.signUp(email: "bea@example.com", username: "bea", password: Self.password)
        _ = try await session.client.follow("ana")
        let post = try await ana.createPost(CreatePostRequest(kind: .note, text: text))
        let feed = await FeedViewModel(kind: .following, session: session)
        let detail = await PostDetailViewModel(postID: post.id, session: session)
        await feed.loadInitial()
        await detail.load()
        return (ana, network, session, post, feed, detail)
    }

    @Test("kudos given offline show in the feed and on the post at once, and land once when the network is back")
    func offlineKudos() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea's feed and Ana's post on screen
            let (ana, network, session, post, feed, detail) = try await Self.beaWatchingAnasPost(
                "Hill repeats #run", url: url)
            #expect(await detail.post?.kudosCount == 0)
            #expect(await feed.posts.map(\.id) == [post.id], "saving the post for its screen keeps it in the feed")

            // When she gives kudos with no network
            network.state = .down
            await feed.toggleKudos(post.id)

            // Then the feed shows them at once, the post's screen follows, and the action waits
            let shown = try #require(await feed.posts.first { $0.id == post.id })
            #expect(shown.kudosedByMe && shown.kudosCount == 1)
            try await SpotterSessionTests.eventually { await detail.post?.kudosedByMe == true }
            #expect(await detail.post?.kudosCount == 1)
            #expect(try await session.outbox.pending.count == 1)
            #expect(try await ana.post(post.id).kudosCount == 0, "nothing reached the server")

            // When a retry reaches the server but its answer is lost, and the next one gets through (each sent as
            // on a reconnect, without waiting out the backoff)
            network.state = .answerLost
            #expect(await session.outbox.drain(ignoringBackoff: true).isEmpty)
            #expect(try await ana.post(post.id).kudosCount == 1, "the lost answer's request landed")
            network.state = .up
            let outcomes = await session.outbox.drain(ignoringBackoff: true)

            // Then the kudos landed once, and every screen shows the server's count
            #expect(outcomes.count == 1)
            #expect(try await session.outbox.pending.isEmpty)
            #expect(try await ana.post(post.id).kudosCount == 1)
            let landed = try #require(await feed.posts.first { $0.id == post.id })
            #expect(landed.kudosedByMe && landed.kudosCount == 1)
            try await SpotterSessionTests.eventually { await detail.post?.kudosCount == 1 }
            #expect(await detail.post?.kudosedByMe == true)
        }
    }

    @Test("a refresh while kudos wait keeps them shown, and kudos on the post's screen show in the feed")
    func refreshKeepsWaitingKudos() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea's feed with Ana's post, and kudos waiting for the network
            let (_, network, _, post, feed, detail) = try await Self.beaWatchingAnasPost("Tempo #run", url: url)
            network.state = .down
            await detail.toggleKudos()
            #expect(await detail.post?.kudosedByMe == true)
            try await SpotterSessionTests.eventually {
                await feed.posts.first { $0.id == post.id }?.kudosedByMe == true
            }

            // When the network is back for reads only, and the feed is refreshed before the outbox drains
            network.state = .readsOnly
            await feed.refresh()

            // Then the server's copy of the post still shows the waiting kudos
            #expect(await feed.errorMessage == nil)
            let refreshed = try #require(await feed.posts.first { $0.id == post.id })
            #expect(refreshed.kudosedByMe && refreshed.kudosCount == 1)
        }
    }
}

/// No request gets through: a phone in a tunnel.
struct Unreachable: HTTPTransport {
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        throw URLError(.notConnectedToInternet)
    }
}

/// The real network, switched off, on, on for reads only, or losing answers, as a test says.
final class SwitchableNetwork: HTTPTransport {
    enum State { case up, down, readsOnly, answerLost }

    private let current = NIOLockedValueBox(State.up)
    var state: State {
        get { current.withLockedValue { $0 } }
        set { current.withLockedValue { $0 = newValue } }
    }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        switch state {
        case .up:
            return try await URLSessionTransport().send(request)
        case .down:
            throw URLError(.notConnectedToInternet)
        case .readsOnly:
            guard request.method == "GET" else { throw URLError(.notConnectedToInternet) }
            return try await URLSessionTransport().send(request)
        case .answerLost:
            _ = try await URLSessionTransport().send(request)
            throw URLError(.networkConnectionLost)
        }
    }
}
