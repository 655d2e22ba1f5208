import Foundation
import SpotterCore
import SpotterKit
import SpotterModels
import SpotterTestSupport
import Testing

/// The notifications screen against a real server (issue 40, item 1): the inbox as the server groups it,
/// kept for a cold start offline, the badge, marks and archives that show at once and land once, live pushes,
/// and the screen each kind of notification opens.
@Suite("Notifications view model")
struct NotificationsViewModelTests {
    static let password = "correct horse battery"

    static func person(
        _ name: String, _ url: URL, transport: any HTTPTransport = URLSessionTransport()
    )
        async throws -> SpotterClient
    {
        try await LiveServer.person(name, url, password: password, transport: transport)
    }

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("spotter-kit-inbox-\(UUID())")
    }

    @Test(
        "the inbox grouped as the server groups it, each row's route, a tap that reads it, an archive, all read",
        arguments: StorageBackend.available)
    func inboxMarksAndRoutes(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend, configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea's post, with kudos and a comment from Ana, and Ana and Cal following her
            let bea = try await Self.person("bea", url)
            let ana = try await Self.person("ana", url)
            let cal = try await Self.person("cal", url)
            let post = try await bea.createPost(CreatePostRequest(kind: .note, text: "Easy 5k along the river"))
            _ = try await ana.setKudos(true, on: post.id)
            let comment = try await ana.addComment(CreateCommentRequest(text: "Nice pace!"), on: post.id)
            _ = try await ana.follow("bea")
            _ = try await cal.follow("bea")
            let model = await NotificationsViewModel(
                client: bea, outbox: ActionQueue(database: try AppDatabase(path: nil), client: bea))

            // When she opens the notifications screen
            await model.appeared()

            // Then she sees three rows, newest first, the follows folded into one, all unread and now seen
            let groups = await model.groups
            #expect(groups.map(\.type) == [.follow, .comment, .kudos])
            #expect(groups.first?.notificationsCount == 2)
            #expect(groups.allSatisfy { $0.unread })
            #expect(await model.unreadCount == 4)
            #expect(await model.unseenCount == 0)
            #expect(try await bea.notificationCounts() == NotificationCounts(unread: 4, unseen: 0))
            // And each row opens its screen
            #expect(NotificationRoute(groups[0]) == .person(username: "cal"))
            #expect(NotificationRoute(groups[1]) == .post(post.id, comment: comment.id))
            #expect(NotificationRoute(groups[2]) == .post(post.id, comment: nil))

            // When she taps the kudos row
            let route = await model.open(groups[2])

            // Then it opens the post, reads as read here at once and on the server
            #expect(route == .post(post.id, comment: nil))
            #expect(await model.groups.first { $0.type == .kudos }?.unread == false)
            #expect(await model.unreadCount == 3)
            #expect(try await bea.notificationCounts().unread == 3)

            // When she archives the follows and marks everything read
            await model.archive(groups[0])
            await model.markAllRead()

            // Then the follows are gone here and on the server, and nothing is unread anywhere
            #expect(await model.groups.map(\.type) == [.comment, .kudos])
            #expect(try await bea.notifications().items.map(\.type) == [.comment, .kudos])
            #expect(await model.unreadCount == 0)
            #expect(try await bea.notificationCounts() == NotificationCounts(unread: 0, unseen: 0))
            #expect(await model.errorMessage == nil)
        }
    }

    @Test("a cold start offline shows the kept inbox and badge; a mark made offline shows at once and lands once")
    func offlineInbox() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea's inbox with kudos from Ana, loaded once on a phone that keeps its database in a file
            let network = SwitchableNetwork()
            let tokens = MemoryTokenStore()
            let bea = SpotterClient(baseURL: url, tokens: tokens, transport: network)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let ana = try await Self.person("ana", url)
            let post = try await bea.createPost(CreatePostRequest(kind: .note, text: "Hill repeats"))
            _ = try await ana.setKudos(true, on: post.id)
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("spotter.sqlite").path
            do {
                let model = await NotificationsViewModel(
                    client: bea, outbox: ActionQueue(database: try AppDatabase(path: path), client: bea))
                await model.appeared()
                #expect(await model.groups.count == 1)
            }

            // When the app starts again without a network
            network.state = .down
            let database = try AppDatabase(path: path)
            let outbox = ActionQueue(database: database, client: bea)
            let model = await NotificationsViewModel(client: bea, outbox: outbox)
            await model.appeared()

            // Then the kept inbox and badge show, with word of being offline
            let kept = await model.groups
            #expect(kept.map(\.type) == [.kudos])
            #expect(await model.unreadCount == 1)
            #expect(await model.errorMessage == "You're offline. Showing what was loaded.")

            // When she opens the row offline
            _ = await model.open(kept[0])

            // Then it reads as read at once, and waits in the outbox
            #expect(await model.groups.first?.unread == false)
            #expect(await model.unreadCount == 0)
            #expect(try await outbox.pending.map(\.action) == [.markNotificationGroupRead(kept[0].groupKey)])
            let online = SpotterClient(baseURL: url, tokens: tokens)  // the same person on another device
            #expect(try await online.notificationCounts().unread == 1, "the server has not heard yet")

            // When the network comes back and the outbox drains, as a reconnect drains it, twice
            network.state = .up
            let first = await outbox.drain(ignoringBackoff: true)
            let second = await outbox.drain(ignoringBackoff: true)

            // Then the mark landed once, and a refresh keeps it read
            #expect(first.count == 1 && second.isEmpty)
            #expect(try await online.notificationCounts().unread == 0)
            await model.refresh()
            #expect(await model.groups.first?.unread == false)
            #expect(await model.errorMessage == nil)
        }
    }

    @Test("a notification and the badge pushed live on user:<id> show at once")
    func livePushes() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea on the notifications screen, her socket joined to her own topic
            let bea = try await Self.person("bea", url)
            let ana = try await Self.person("ana", url)
            let post = try await bea.createPost(CreatePostRequest(kind: .note, text: "Tempo Tuesday"))
            let model = await NotificationsViewModel(
                client: bea, outbox: ActionQueue(database: try AppDatabase(path: nil), client: bea))
            await model.appeared()
            #expect(await model.groups.isEmpty)
            let realtime = RealtimeClient(baseURL: url) { try await bea.currentAccessToken() }
            await realtime.join(.user(try await bea.me().id))
            var events = realtime.events.makeAsyncIterator()
            while let event = await events.next() {
                if case .connection(true) = event { break }
            }

            // When Ana gives kudos, and the pushes are handed to the screen as the app's event loop does
            _ = try await ana.setKudos(true, on: post.id)
            var sawNotification = false
            var sawBadge = false
            while !(sawNotification && sawBadge), let event = await events.next() {
                guard case .push(let push, _) = event else { continue }
                if case .notification = push { sawNotification = true }
                if case .unreadCount = push { sawBadge = true }
                await model.receive(push)
            }

            // Then the row is on top and the badge counts it, without a reload
            #expect(await model.groups.map(\.type) == [.kudos])
            #expect(await model.groups.first.map(NotificationRoute.init) == .post(post.id, comment: nil))
            #expect(await model.unreadCount == 1)
            await realtime.signOut()
        }
    }

    @Test(
        "a group invitation opens the group and a join request the group's requests",
        arguments: StorageBackend.available)
    func groupRoutes(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend, configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's request-access team, Bea invited to it by name, and Cal asking to join
            let ana = try await Self.person("ana", url)
            let bea = try await Self.person("bea", url)
            let cal = try await Self.person("cal", url)
            let team = try await ana.createGroup(CreateGroupRequest(name: "Iron Hour", access: .request))
            _ = try await ana.createInvitation(to: team.id, CreateInvitationRequest(username: "bea"))
            _ = try await cal.joinGroup(team.id)

            // When each opens their notifications
            let beas = await NotificationsViewModel(
                client: bea, outbox: ActionQueue(database: try AppDatabase(path: nil), client: bea))
            let anas = await NotificationsViewModel(
                client: ana, outbox: ActionQueue(database: try AppDatabase(path: nil), client: ana))
            await beas.appeared()
            await anas.appeared()

            // Then the invitation names the group, and the request its requests
            let invitation = try #require(await beas.groups.first)
            #expect(invitation.type == .groupInvitation && invitation.groupID == team.id)
            #expect(NotificationRoute(invitation) == .group(team.id))
            let request = try #require(await anas.groups.first)
            #expect(request.type == .groupJoinRequest)
            #expect(NotificationRoute(request) == .groupJoinRequests(team.id))
        }
    }

    @Test("a phone's push token registered by the session is forgotten on the server at sign-out")
    func pushTokenForgottenAtSignOut() async throws {
        try await LiveServer.runWithStorage(configure: { $0.postRules.newAccountAge = 0 }) { url, _, storage in
            // Given Bea signed in on a session whose phone registered for pushes
            let session = try SpotterSession(baseURL: url, folder: nil, tokens: MemoryTokenStore())
            let bea = try await session.client.signUp(
                email: "bea@example.com", username: "bea", password: Self.password)
            let token = String(repeating: "ab", count: 32)
            try await session.registerForPushes(token: token)
            #expect(try await storage.pushAddresses.devices(of: bea.id) == [token])

            // When she signs out
            await session.signOut()

            // Then the server no longer pushes to that phone
            #expect(try await storage.pushAddresses.devices(of: bea.id).isEmpty)
        }
    }
}
