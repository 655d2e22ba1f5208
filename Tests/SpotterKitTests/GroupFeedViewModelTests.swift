import Foundation
import NIOConcurrencyHelpers
import SpotterKit
import SpotterModels
import SpotterTestSupport
import Testing

/// A group's page against a real server (issue 28): its feed, live posts, and offline.
@Suite("Group feed view model")
struct GroupFeedViewModelTests {
    static let password = "correct horse battery"

    @Test(
        "the group feed pages newest first with only the group's posts, and a member's live post waits behind the bar")
    func pagesAndLive() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's club with 25 posts (and a public one beside them), and Bea a member
            let ana = try await GroupsViewModelTests.person("ana", url)
            let club = try await ana.createGroup(CreateGroupRequest(name: "Riverside Runners", access: .open))
            for index in 0..<25 {
                _ = try await ana.createPost(
                    CreatePostRequest(kind: .note, text: "Club run \(index)", groupID: club.id))
            }
            _ = try await ana.createPost(CreatePostRequest(kind: .note, text: "Public run"))
            let bea = try await GroupsViewModelTests.person("bea", url)
            _ = try await bea.joinGroup(club.id)
            let model = try await GroupFeedViewModel(
                groupID: club.id, client: bea, outbox: ActionQueue(path: nil, client: bea))

            // When she opens the group and scrolls
            await model.loadInitial()
            #expect(await model.group?.name == "Riverside Runners")
            #expect(await model.posts.count == 20)
            #expect(await model.posts.first?.text == "Club run 24")
            await model.loadMore()

            // Then she has every post of the group, newest first, and none from outside it
            #expect(await model.posts.map(\.text) == (0..<25).reversed().map { "Club run \($0)" })
            #expect(await model.posts.allSatisfy { $0.group == GroupSummary(id: club.id, name: "Riverside Runners") })
            #expect(await model.hasMore == false)

            // When she has looked, the group counts nothing new for her; the top order reads the same posts
            #expect(await model.group?.newPosts == 25)
            await model.markSeen()
            #expect(await model.group?.newPosts == 0)
            let top = try await bea.groupPosts(club.id, order: .top, limit: 5)
            #expect(top.items.count == 5 && top.items.allSatisfy { $0.group?.id == club.id })

            // When the app joins the group's topic and hands the model its events, and Ana posts to the group
            let realtime = RealtimeClient(baseURL: url) { try await bea.currentAccessToken() }
            let connected = NIOLockedValueBox(false)
            let events = Task {
                for await event in realtime.events {
                    if event == .connection(true) { connected.withLockedValue { $0 = true } }
                    await model.receive(event)
                }
            }
            defer { events.cancel() }
            await model.startLive(realtime)
            try await SpotterSessionTests.eventually { connected.withLockedValue { $0 } }
            try await Task.sleep(for: .milliseconds(300))  // the join's reply
            let live = try await ana.createPost(
                CreatePostRequest(kind: .note, text: "Live from the river", groupID: club.id))

            // Then it waits behind the bar, and goes on top when she taps it
            try await SpotterSessionTests.eventually { await model.newPostsCount == 1 }
            #expect(await model.posts.first?.id != live.id)
            await model.showNewPosts()
            #expect(await model.posts.first?.id == live.id)
            #expect(await model.posts.count == 26)

            // When Ana deletes it, it leaves Bea's feed live
            try await ana.deletePost(live.id)
            try await SpotterSessionTests.eventually { await model.posts.first?.id != live.id }
            #expect(await model.posts.count == 25)
            await realtime.signOut()

            // And someone outside the club who posts to it is refused in words, with nothing left waiting
            let cyd = try await GroupsViewModelTests.person("cyd", url)
            let outside = try await GroupFeedViewModel(
                groupID: club.id, client: cyd, outbox: ActionQueue(path: nil, client: cyd))
            #expect(await outside.post("Can I come?") == false)
            #expect(await outside.errorMessage?.contains("is not a group you are a member of") == true)
            #expect(await outside.pendingPosts.isEmpty)
        }
    }

    @Test("a group's kept feed shows while the server is down, and a note posted then reaches the group once")
    func offline() async throws {
        let port = try await LiveServer.freePort()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        try await StorageBackend.sqlite.withIsolatedStorage { storage in
            var server = try await LiveServer.start(storage: storage, port: port)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            // Given Bea's session that opened Ana's private family circle, with its posts, and her groups screen
            let ana = try await GroupsViewModelTests.person("ana", url)
            let family = try await ana.createGroup(CreateGroupRequest(name: "The Kellers", access: .private))
            let link = try await ana.createInvitation(to: family.id)
            for text in ["Swim lesson today", "Picnic on Sunday"] {
                _ = try await ana.createPost(CreatePostRequest(kind: .note, text: text, groupID: family.id))
            }
            let tokens = MemoryTokenStore()
            let network = SwitchableNetwork()
            let online = try SpotterSession(
                baseURL: url, folder: folder, tokens: tokens, transport: network, retry: .none)
            try await online.client.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            _ = try await online.client.joinGroup(code: try #require(link.code))
            let before = await GroupFeedViewModel(groupID: family.id, session: online)
            await before.loadInitial()
            #expect(await before.posts.map(\.text) == ["Picnic on Sunday", "Swim lesson today"])
            await GroupsViewModel(session: online).load()

            // When the server goes down and the app starts again on that folder
            server.cancel()
            _ = await server.result
            let offline = try SpotterSession(baseURL: url, folder: folder, tokens: tokens, retry: .none)
            let groups = await GroupsViewModel(session: offline)
            let feed = await GroupFeedViewModel(groupID: family.id, session: offline)
            await groups.load()
            await feed.loadInitial()

            // Then her groups and the group's page show what was kept, and say they are offline
            #expect(await groups.myGroups.map(\.name) == ["The Kellers"])
            #expect(await groups.errorMessage == "You're offline. Showing what was loaded.")
            #expect(await feed.group?.name == "The Kellers")
            #expect(await feed.posts.map(\.text) == ["Picnic on Sunday", "Swim lesson today"])
            #expect(await feed.errorMessage == "You're offline. Showing what was loaded.")

            // When she posts to the group meanwhile (on the first session, whose network she can switch)
            network.state = .down
            #expect(await before.post("Who's cooking tonight?"))
            #expect(await before.pendingPosts.map(\.text) == ["Who's cooking tonight?"])

            // And the server is back, and the first try lands but its answer is lost, and the next gets through
            server = try await LiveServer.start(storage: storage, port: port)
            network.state = .answerLost
            await before.sendWaiting()
            #expect(await before.pendingPosts.count == 1)
            network.state = .up
            await before.sendWaiting()

            // Then it is in the group once, on her screen and on the server
            #expect(await before.pendingPosts.isEmpty)
            #expect(
                await before.posts.map(\.text) == ["Who's cooking tonight?", "Picnic on Sunday", "Swim lesson today"])
            let onServer = try await ana.groupPosts(family.id).items.map(\.text)
            #expect(onServer == ["Who's cooking tonight?", "Picnic on Sunday", "Swim lesson today"])
            server.cancel()
            _ = await server.result
        }
    }

}
