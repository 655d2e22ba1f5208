import Foundation
import SpotterKit
import SpotterModels
import Testing

/// Feeds that stay true (issue 40, item 6): counts pushed live reach the feed as they reach the post's own
/// screen, a kudos still in the outbox stays counted on top of the server's count, and a feed refreshes itself
/// when its connection comes back.
@Suite("Feed live updates")
struct FeedLiveUpdatesTests {
    static let password = "correct horse battery"

    static func person(
        _ name: String, _ url: URL, transport: any HTTPTransport = URLSessionTransport()
    )
        async throws -> SpotterClient
    {
        try await LiveServer.person(name, url, password: password, transport: transport)
    }

    /// The next push on the socket, skipping connection news.
    static func nextPush(_ events: inout AsyncStream<RealtimeEvent>.Iterator) async -> RealtimeEvent? {
        while let event = await events.next() {
            if case .push = event { return event }
        }
        return nil
    }

    @Test("kudos and comments pushed live show on the feed at once, a kudos waiting offline counted on top")
    func countsReachTheFeed() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's run in Bea's Following feed, and the post's topic joined on Bea's socket
            let ana = try await Self.person("ana", url)
            let network = SwitchableNetwork()
            let bea = try await Self.person("bea", url, transport: network)
            let cal = try await Self.person("cal", url)
            _ = try await bea.follow("ana")
            let run = try await ana.createPost(CreatePostRequest(kind: .note, text: "Tempo 8k"))
            let outbox = try ActionQueue(path: nil, client: bea)
            let model = await FeedViewModel(kind: .following, client: bea, outbox: outbox)
            await model.loadInitial()
            #expect(await model.posts.map(\.id) == [run.id])
            let realtime = RealtimeClient(baseURL: url) { try await bea.currentAccessToken() }
            await realtime.join(.post(run.id))
            var events = realtime.events.makeAsyncIterator()
            while let event = await events.next() {
                if case .connection(true) = event { break }
            }

            // When Cal comments, and the push is handed to the feed
            _ = try await cal.addComment(CreateCommentRequest(text: "Strong!"), on: run.id)
            let comments = try #require(await Self.nextPush(&events))
            await model.receive(comments)

            // Then the feed's copy counts it, without a reload
            #expect(await model.posts.first?.commentsCount == 1)

            // When Bea gives kudos offline (shown at once, waiting in the outbox) and Cal gives kudos online
            network.state = .down
            await model.toggleKudos(run.id)
            #expect(await model.posts.first?.kudosCount == 1)
            _ = try await cal.setKudos(true, on: run.id)
            let likes = try #require(await Self.nextPush(&events))
            guard case .push(.likesUpdated(let update), _) = likes else {
                Issue.record("expected post_likes_updated, got \(likes)")
                return
            }
            #expect(update.likesCount == 1, "the server has only Cal's")
            await model.receive(likes)

            // Then the feed shows both: the server's one and Bea's still on its way
            let shown = try #require(await model.posts.first)
            #expect(shown.kudosCount == 2 && shown.kudosedByMe)

            // When the network is back and the outbox drains, the server counts both too
            #expect(try await cal.post(run.id).kudosCount == 1, "not sent yet")
            network.state = .up
            await model.refresh()
            #expect(await model.posts.first?.kudosCount == 2, "a refresh keeps the waiting kudos shown")
            #expect(await outbox.drain(ignoringBackoff: true).count == 1)
            #expect(try await cal.post(run.id).kudosCount == 2)
            await realtime.signOut()
        }
    }

    @Test("a feed whose connection was lost refreshes itself when it is back; the first connect does not")
    func refreshAfterReconnect() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea's Following feed with Ana's first post
            let ana = try await Self.person("ana", url)
            let bea = try await Self.person("bea", url)
            _ = try await bea.follow("ana")
            _ = try await ana.createPost(CreatePostRequest(kind: .note, text: "Morning swim"))
            let model = await FeedViewModel(
                kind: .following, client: bea, outbox: try ActionQueue(path: nil, client: bea))
            await model.loadInitial()
            #expect(await model.posts.count == 1)

            // When the socket connects for the first time while Ana posts again
            let second = try await ana.createPost(CreatePostRequest(kind: .note, text: "Evening ride"))
            await model.receive(.connection(true))

            // Then nothing reloads: live posts come behind the bar
            #expect(await model.posts.count == 1)

            // When the connection is lost and comes back
            await model.receive(.connection(false))
            await model.receive(.connection(true))

            // Then the feed fetched what it missed
            #expect(await model.posts.map(\.id).first == second.id)
            #expect(await model.posts.count == 2)
        }
    }
}
