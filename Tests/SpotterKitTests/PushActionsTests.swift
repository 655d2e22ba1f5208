import Foundation
import SpotterKit
import SpotterModels
import SpotterTestSupport
import Testing

/// Pushes as an app hands them to the session (issue 40, item 2), against a real server: an action chosen on a
/// notification goes through the outbox and lands once, offline too; a tap opens the push's route; a silent
/// push refreshes what the screens read.
@Suite("Push actions")
struct PushActionsTests {
    static let password = "correct horse battery"

    /// Ana's session on a network the test switches, signed up.
    static func ana(_ url: URL) async throws -> (SpotterSession, SwitchableNetwork) {
        let network = SwitchableNetwork()
        let session = try SpotterSession(
            baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
        try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
        return (session, network)
    }

    @Test(
        "Approve on a follow request's push, chosen offline, lands once when the network is back",
        arguments: StorageBackend.available)
    func approveOffline(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend, configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana, private, and Bea asking to follow her
            let (session, network) = try await Self.ana(url)
            _ = try await session.client.updateProfile(UpdateAccountRequest(privacy: .private))
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            _ = try await bea.follow("ana")
            let row = try #require(try await session.client.notifications().items.first)
            // And the push as iOS hands its user info to the app
            let userInfo: [AnyHashable: Any] = [
                "aps": ["alert": ["title": "Spotter", "body": "Someone asked to follow you"]],
                "spotter": "alert", "type": "follow_request", "group_key": row.groupKey,
                "actor": "bea", "actor_id": try await bea.me().id.description,
            ]
            let push = try #require(NotificationPush(userInfo: userInfo))
            #expect(push.category == .followRequest)

            // When she taps Approve with no network
            network.state = .down
            let route = await session.respond(to: push, with: .approve)

            // Then nothing opens, and the answer waits in the outbox
            #expect(route == nil)
            #expect(try await session.outbox.pending.map(\.action).contains(.answerFollowRequest("bea", approve: true)))

            // When the network is back and the outbox drains, twice
            network.state = .up
            _ = await session.outbox.drain(ignoringBackoff: true)
            _ = await session.outbox.drain(ignoringBackoff: true)

            // Then Bea follows Ana, once, and the request's row is read
            #expect(try await session.client.followers(of: "ana").items.map(\.username) == ["bea"])
            #expect(try await session.client.followRequests().items.isEmpty)
            #expect(try await session.client.notificationCounts().unread == 0)
            #expect(try await session.outbox.pending.isEmpty)
        }
    }

    @Test("Kudos on a push gives kudos without opening the app; a tap opens the post at its comment")
    func kudosAndView() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea's post, Ana's comment on it and Bea's reply, which Ana is told of
            let (session, _) = try await Self.ana(url)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            let post = try await bea.createPost(CreatePostRequest(kind: .note, text: "Track night"))
            let comment = try await session.client.addComment(CreateCommentRequest(text: "Splits?"), on: post.id)
            let reply = try await bea.addComment(
                CreateCommentRequest(text: "75s laps", parentID: comment.id), on: post.id)
            let row = try #require(try await session.client.notifications().items.first)
            #expect(row.type == .reply)
            let push = NotificationPush(
                type: .reply, groupKey: row.groupKey, postID: post.id, commentID: reply.id, actorUsername: "bea")

            // When she gives kudos from the notification
            #expect(await session.respond(to: push, with: .kudos) == nil)

            // Then the post has her kudos, and the row is read
            #expect(try await bea.post(post.id).kudosCount == 1)
            #expect(try await session.client.notificationCounts().unread == 0)

            // When she taps the notification itself
            let route = await session.respond(to: push, with: .view)

            // Then it opens the post at Bea's reply, as the inbox row would, and counts the open
            #expect(route == .post(post.id, comment: reply.id))
            #expect(route == NotificationRoute(row))
        }
    }

    @Test("a silent push refreshes the badge, the inbox and the Following feed that the screens read")
    func silentRefresh() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana following Bea, who posts and gives Ana's post kudos while Ana's app is asleep
            let (session, network) = try await Self.ana(url)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            _ = try await session.client.follow("bea")
            let mine = try await session.client.createPost(CreatePostRequest(kind: .note, text: "Rest day"))
            _ = try await bea.setKudos(true, on: mine.id)
            let news = try await bea.createPost(CreatePostRequest(kind: .note, text: "New 10k best"))

            // When a silent push arrives, as iOS hands it over
            let userInfo: [AnyHashable: Any] = ["aps": ["content-available": 1], "spotter": "refresh", "unread": "1"]
            let push = try #require(NotificationPush(userInfo: userInfo))
            #expect(await session.received(push) == .newData)

            // Then, with the network gone, the screens show what the push fetched
            network.state = .down
            let inbox = await NotificationsViewModel(session: session)
            await inbox.loadBadge()
            #expect(await inbox.unreadCount == 1)
            #expect(await inbox.groups.map(\.type) == [.kudos])
            let feed = await FeedViewModel(kind: .following, session: session)
            await feed.loadInitial()
            #expect(await feed.posts.map(\.id).contains(news.id))

            // And a push that is not Spotter's is left alone
            #expect(NotificationPush(userInfo: ["aps": ["alert": "Hi"], "other": "x"]) == nil)
        }
    }
}
