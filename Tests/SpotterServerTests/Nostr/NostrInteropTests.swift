import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterServer
import SpotterTestSupport
import Testing

/// rust-nostr's client against `/relay`: a workout signed on someone's device becomes a Spotter post their
/// followers see (over REST and live on the Phoenix socket), and Spotter's privacy holds on the way out.
@Suite("Nostr relay with rust-nostr", .enabled(if: RustNostrClient.isAvailable, "scripts/test installs nostr-sdk in .venv"))
struct NostrInteropTests {
    @Test("a 1301 from a linked key is a workout in a follower's Following feed, over REST and live",
        arguments: StorageBackend.available)
    func workoutReachesFollowers(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.signup("ana")
            let ben = try await api.user("ben")
            let key = try NostrSecretKey.generate()
            try await api.linkNostrKey(ana.accessToken, key)
            try await api.follow(ben, "ana")
            let socket = try await PhoenixTestClient.connect(port: port, token: ben)
            let me = try await api.call(.get, "/api/v1/me", token: ben).decode(Account.self)
            #expect(try await socket.join("feed:\(me.id)", ref: "1").payload["status"] == .string("ok"))
            let relay = "ws://127.0.0.1:\(port)/relay"
            let watcher = try RustNostrClient.subscribe(
                relay: relay, filter: NostrFilter(kinds: [.workoutRecord]), count: 1)
            #expect(try await watcher.stored().isEmpty)

            // When ana's device publishes a workout through rust-nostr's client
            let start = TestEvents.now(api) - 7200
            let published = try await RustNostrClient.publish(
                relay: relay, key: key, kind: 1301, content: "Felt strong",
                tags: TestEvents.workoutTags(author: key.publicKey, title: "Leg day", start: start,
                    sets: [(100, 5), (110, 3)]))
            #expect(published.accepted, "\(published.message)")

            // Then ben's Following feed has it, and his socket got it live
            let pushed = try await socket.next(timeout: .seconds(10)) { $0.event == "new_post" }
            #expect(pushed.payload["author"]?["username"]?.stringValue == "ana")
            let feed = try await api.feed("/api/v1/feeds/following", token: ben)
            let post = try #require(feed.items.first)
            #expect(post.author.username == "ana" && post.kind == .workout)
            #expect(post.workout?.title == "Leg day")
            #expect(post.workout?.exercises.first?.sets?.map(\.weightKg) == [100, 110])
            #expect(post.text == "Felt strong")
            // and a Nostr subscriber got the event itself, unchanged
            let live = try #require(try await watcher.next())
            #expect(live.id.rawValue == published.id && live.isValid)

            // Published again (a retry), it makes nothing new
            _ = try await RustNostrClient.publish(
                relay: relay, key: key, kind: 1301, content: live.content, tags: live.tags, createdAt: live.createdAt)
            #expect(try await api.feed("/api/v1/feeds/following", token: ben).items.count == 1)
            watcher.stop()
            await socket.close()
        }
    }

    @Test("a deletion tombstones the post; a non-public post's event and a suspended author's never leave",
        arguments: StorageBackend.available)
    func privacyOnTheWayOut(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            let key = try NostrSecretKey.generate()
            try await api.linkNostrKey(ana, key)
            let relay = try await NostrTestClient.connect(port: port)
            let now = TestEvents.now(api)
            let first = try NostrEvent.sign(
                kind: .workoutRecord,
                tags: TestEvents.workoutTags(author: key.publicKey, title: "One", start: now - 7200),
                content: "", createdAt: now - 3600, with: key)
            let second = try NostrEvent.sign(
                kind: .workoutRecord,
                tags: TestEvents.workoutTags(author: key.publicKey, title: "Two", start: now - 3600),
                content: "", createdAt: now - 60, with: key)
            for event in [first, second] { #expect(try await relay.publish(event).accepted) }
            var posts = try await api.feed("/api/v1/users/ana/posts", token: nil).items
            #expect(posts.map { $0.workout?.title } == ["Two", "One"])

            // A kind 5 from ana: the event is gone from the relay and the post from Spotter
            let deletion = try NostrEvent.sign(kind: .deletion, tags: [["e", first.id.rawValue]], content: "", with: key)
            #expect(try await relay.publish(deletion).accepted)
            posts = try await api.feed("/api/v1/users/ana/posts", token: nil).items
            #expect(posts.map { $0.workout?.title } == ["Two"])
            #expect(try await relay.request("a", [NostrFilter(ids: [first.id])]).get().isEmpty)
            // and it cannot come back
            #expect(try await relay.publish(first).accepted == false)

            // Made followers-only in Spotter, the second's event leaves the relay
            let two = try #require(posts.first)
            let patched = try await api.call(
                .patch, "/api/v1/posts/\(two.id)", token: ana, body: UpdatePostRequest(visibility: .followers))
            #expect(patched.status == .ok)
            #expect(try await relay.request("b", [NostrFilter(authors: [key.publicKey])]).get().map(\.id)
                == [deletion.id])

            // Suspended, nothing of ana's is served, nor goes out live
            try await relay.send(.request(subscription: "live", filters: [NostrFilter(authors: [key.publicKey])]))
            _ = try await relay.next { $0 == .endOfStoredEvents(subscription: "live") }
            try await api.suspend("ana")
            #expect(try await relay.request("c", [NostrFilter(authors: [key.publicKey])]).get().isEmpty)
            await relay.close()
        }
    }

    @Test("two nodes on one PostgreSQL: an event written on A reaches a subscription on B",
        .enabled(if: StorageBackend.available.contains(.postgres)))
    func acrossNodes() async throws {
        try await StorageBackend.withTwoPostgresNodes { nodeA, nodeB in
            func configuration() -> AppConfiguration {
                var configuration = AppConfiguration()
                configuration.bcryptCost = 4
                configuration.runsMaintenance = false
                configuration.delivery.runsQueue = false
                configuration.port = 0
                configuration.nostr.writePolicy = .open
                return configuration
            }
            let clock = ManualClock(Date())
            let appA = try await buildApplication(
                configuration: configuration(), storage: nodeA, clock: clock, logger: StorageBackend.logger)
            let appB = try await buildApplication(
                configuration: configuration(), storage: nodeB, clock: clock, logger: StorageBackend.logger)
            try await appA.test(.live) { clientA in
                try await appB.test(.live) { clientB in
                    let portA = try #require(clientA.port)
                    let portB = try #require(clientB.port)
                    let key = try NostrSecretKey.generate()
                    let onB = try RustNostrClient.subscribe(
                        relay: "ws://127.0.0.1:\(portB)/relay", filter: NostrFilter(authors: [key.publicKey]),
                        count: 1)
                    #expect(try await onB.stored().isEmpty)
                    let published = try await RustNostrClient.publish(
                        relay: "ws://127.0.0.1:\(portA)/relay", key: key, kind: 1, content: "from A",
                        tags: [["t", "running"]])
                    #expect(published.accepted)
                    let arrived = try #require(try await onB.next())
                    #expect(arrived.content == "from A" && arrived.id.rawValue == published.id)
                    onB.stop()
                }
            }
        }
    }
}
