import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// The realtime socket, driven over a real WebSocket by a client written to the Phoenix protocol.
@Suite("Realtime socket")
struct RealtimeTests {
    static func isReply(_ ref: String) -> @Sendable (PhoenixMessage) -> Bool {
        { $0.event == "phx_reply" && $0.ref == ref }
    }

    @Test(
        "join, reply, heartbeat, presence; bad tokens are refused at the upgrade", arguments: StorageBackend.available)
    func basics(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            let socket = try await PhoenixTestClient.connect(port: port, token: ana)
            let reply = try await socket.join("community:feed", ref: "1")
            #expect(reply.payload["status"] == .string("ok"))
            let state = try await socket.next { $0.event == "presence_state" }
            #expect(state.payload.objectKeys.count == 1)
            try await socket.send(joinRef: nil, ref: "2", topic: "phoenix", event: "heartbeat")
            let beat = try await socket.next(where: Self.isReply("2"))
            #expect(beat.topic == "phoenix" && beat.payload["status"] == .string("ok"))
            // The subprotocol form works too.
            let other = try await PhoenixTestClient.connect(port: port, token: ana, subprotocol: true)
            #expect(try await other.join("community:feed", ref: "1").payload["status"] == .string("ok"))
            await other.close()
            await socket.close()
            // A bad token never upgrades; over plain HTTP it is a 403, a good token without upgrade a 400.
            await #expect(throws: (any Error).self) {
                _ = try await PhoenixTestClient.connect(port: port, token: "spa_nope")
            }
            #expect(try await api.call(.get, "/socket/websocket?token=spa_nope").status == .forbidden)
            #expect(try await api.call(.get, "/socket/websocket?token=\(ana)").status == .badRequest)
        }
    }

    @Test("topics are private to who may read them", arguments: StorageBackend.available)
    func topicPrivacy(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            let bea = try await api.signup("bea")
            let secret = try await api.post(bea.accessToken, "just me", visibility: .private)
            let socket = try await PhoenixTestClient.connect(port: port, token: ana)
            for (index, topic) in ["feed:\(bea.user.id)", "user:\(bea.user.id)", "post:\(secret.id)", "rooms:lobby"]
                .enumerated()
            {
                let reply = try await socket.join(topic, ref: "r\(index)")
                #expect(reply.payload["status"] == .string("error"), "\(topic)")
            }
            let me = try await api.call(.get, "/api/v1/me", token: ana).decode(Account.self)
            #expect(try await socket.join("feed:\(me.id)", ref: "mine").payload["status"] == .string("ok"))
            await socket.close()
        }
    }

    @Test("each event reaches only sockets whose user may see the post", arguments: StorageBackend.available)
    func broadcasts(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")  // a stranger to Bea
            let cai = try await api.signup("cai")  // Bea's follower
            let bea = try await api.user("bea")
            try await api.follow(cai.accessToken, "bea")
            let stranger = try await PhoenixTestClient.connect(port: port, token: ana)
            let follower = try await PhoenixTestClient.connect(port: port, token: cai.accessToken)
            _ = try await stranger.join("community:feed", ref: "1")
            _ = try await follower.join("feed:\(cai.user.id)", ref: "1")
            // A public post reaches the community feed and the follower's feed.
            let open = try await api.post(bea, "Deadlifts #gym")
            let seen = try await stranger.next { $0.event == "new_post" }
            #expect(seen.payload["id"]?.stringValue == open.id.description)
            #expect(try await follower.next { $0.event == "new_post" }.topic == "feed:\(cai.user.id)")
            // A followers-only post reaches the follower only.
            let friends = try await api.post(bea, "Friends only")
            _ = friends
            let onlyFriends = try await api.post(bea, "Friends only 2", visibility: .followers)
            let got = try await follower.next {
                $0.event == "new_post" && $0.payload["id"]?.stringValue == onlyFriends.id.description
            }
            #expect(got.payload["visibility"] == .string("followers"))
            // A public post made after it reaches the stranger: the followers-only one would have come first.
            try await stranger.waitForPost(try await api.post(bea, "Public again #gym"), on: "community:feed")
            let leaked = stranger.collected { $0.payload["id"]?.stringValue == onlyFriends.id.description }
            #expect(leaked.isEmpty)
            // Counts, edits and deletes on the post's own topic.
            _ = try await stranger.join("post:\(open.id)", ref: "2")
            _ = try await api.call(.post, "/api/v1/posts/\(open.id)/kudos", token: ana)
            let likes = try await stranger.next { $0.event == "post_likes_updated" && $0.topic == "post:\(open.id)" }
            #expect(likes.payload["likes_count"] == .number(1))
            _ = try await api.call(
                .post, "/api/v1/posts/\(open.id)/comments", token: ana, body: CreateCommentRequest(text: "nice"))
            let comments = try await stranger.next {
                $0.event == "post_comments_updated" && $0.topic == "post:\(open.id)"
            }
            #expect(comments.payload["comments_count"] == .number(1))
            _ = try await api.call(
                .patch, "/api/v1/posts/\(open.id)", token: bea, body: UpdatePostRequest(text: "Edited #gym"))
            #expect(try await stranger.next { $0.event == "post_updated" }.payload["text"] == .string("Edited #gym"))
            _ = try await api.call(.delete, "/api/v1/posts/\(open.id)", token: bea)
            #expect(
                try await stranger.next { $0.event == "post_deleted" }.payload["id"] == .string(open.id.description))
            await stranger.close()
            await follower.close()
        }
    }

    @Test(
        "one shared view per post still carries each viewer's own kudos and skips blocked people",
        arguments: StorageBackend.available)
    func sharedView(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let bea = try await api.user("bea")
            let ana = try await api.user("ana")
            let cai = try await api.user("cai")
            let dan = try await api.user("dan")
            _ = try await api.call(.post, "/api/v1/users/dan/block", token: bea)
            var sockets: [String: PhoenixTestClient] = [:]
            for (name, token) in [("ana", ana), ("cai", cai), ("dan", dan)] {
                let socket = try await PhoenixTestClient.connect(port: port, token: token)
                _ = try await socket.join("community:feed", ref: "1")
                sockets[name] = socket
            }
            let post = try await api.post(bea, "Tempo run #run")
            _ = try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: ana)
            _ = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: bea, body: UpdatePostRequest(text: "Tempo run, 8 km #run"))
            for (name, kudosed) in [("ana", true), ("cai", false)] {
                let updated = try await #require(sockets[name]).next { $0.event == "post_updated" }
                #expect(updated.payload["kudosed_by_me"] == .bool(kudosed), "\(name)")
                #expect(updated.payload["kudos_count"] == .number(1), "\(name)")
            }
            // Ana's post after Bea's edit reaches Dan: Bea's events, had any been for him, came first.
            try await #require(sockets["dan"]).waitForPost(
                try await api.post(ana, "Intervals #run"), on: "community:feed")
            #expect(
                try #require(sockets["dan"]).collected { $0.payload["id"]?.stringValue == post.id.description }.isEmpty)
            for socket in sockets.values { await socket.close() }
        }
    }

    @Test("presence diffs announce who joins and leaves the community feed", arguments: StorageBackend.available)
    func presence(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.signup("ana")
            let bea = try await api.signup("bea")
            let first = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
            _ = try await first.join("community:feed", ref: "1")
            let second = try await PhoenixTestClient.connect(port: port, token: bea.accessToken)
            _ = try await second.join("community:feed", ref: "1")
            // The state may lag the latest joins by one diff interval; state and the next diff together,
            // merged as Phoenix clients do, list both.
            let state = try await second.next { $0.event == "presence_state" }
            let nextDiff = try await second.next { $0.event == "presence_diff" }
            let merged = Set(state.payload.objectKeys).union(nextDiff.payload["joins"]?.objectKeys ?? [])
                .subtracting(nextDiff.payload["leaves"]?.objectKeys ?? [])
            #expect(merged == [ana.user.id.description, bea.user.id.description])
            // Diffs come in batches, to joiners too (clients merge presences by phx_ref, as in Phoenix), so
            // the first may hear of its own join before Bea's.
            let joined = try await first.next {
                $0.event == "presence_diff" && $0.payload["joins"]?.objectKeys.contains(bea.user.id.description) == true
            }
            #expect(joined.payload["leaves"]?.objectKeys == [])
            // A client that shows no presence opts out of its frames, and still counts as present.
            let cai = try await api.signup("cai")
            let quiet = try await PhoenixTestClient.connect(port: port, token: cai.accessToken)
            _ = try await quiet.join("community:feed", ref: "1", payload: .object(["presence": .bool(false)]))
            let caiJoined = try await first.next {
                $0.event == "presence_diff" && $0.payload["joins"]?.objectKeys == [cai.user.id.description]
            }
            #expect(caiJoined.payload["leaves"]?.objectKeys == [])
            #expect(quiet.collected { $0.event.hasPrefix("presence") }.isEmpty)
            await quiet.close()
            _ = try await first.next {
                $0.event == "presence_diff" && $0.payload["leaves"]?.objectKeys == [cai.user.id.description]
            }
            await second.close()
            let left = try await first.next {
                $0.event == "presence_diff" && $0.payload["leaves"]?.objectKeys.isEmpty == false
            }
            #expect(left.payload["leaves"]?.objectKeys == [bea.user.id.description])
            await first.close()
        }
    }

    @Test("a join with since replays what was missed, or asks for a reset", arguments: StorageBackend.available)
    func resume(backend: StorageBackend) async throws {
        try await TestApp.runLive(
            backend,
            configure: {
                $0.realtime.replayLimit = 3; $0.postRules.newAccountPostsPerHour = 100
            }
        ) {
            api, port in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let seen = try await api.post(bea, "seen before sleeping #gym")
            let cursor = PageRequest.encode(seen.id.rawValue)
            for index in 0..<2 { _ = try await api.post(bea, "missed \(index) #gym") }
            let socket = try await PhoenixTestClient.connect(port: port, token: ana)
            let reply = try await socket.join("community:feed", ref: "1", payload: .object(["since": .string(cursor)]))
            let missed = try #require(reply.payload["response"]?["missed"]?.arrayValue, "\(reply.payload)")
            #expect(missed.map { $0["text"] } == [.string("missed 0 #gym"), .string("missed 1 #gym")])
            for index in 2..<5 { _ = try await api.post(bea, "missed \(index) #gym") }
            let again = try await socket.join("community:feed", ref: "2", payload: .object(["since": .string(cursor)]))
            #expect(again.payload["response"]?["reset"] == .bool(true))
            // The replaced join was closed.
            #expect(try await socket.next { $0.event == "phx_close" && $0.joinRef == "1" }.topic == "community:feed")
            let bad = try await socket.join("community:feed", ref: "3", payload: .object(["since": .string("garbage")]))
            #expect(bad.payload["status"] == .string("error"))
            await socket.close()
        }
    }

    @Test(
        "silence, floods and malformed frames close the socket with a reason; the server stays up",
        arguments: StorageBackend.available)
    func limits(backend: StorageBackend) async throws {
        try await TestApp.runLive(
            backend,
            configure: {
                $0.realtime.idleTimeout = .milliseconds(600)
                $0.realtime.maxMessagesPerSecond = 5
            }
        ) { api, port in
            let ana = try await api.user("ana")
            let quiet = try await PhoenixTestClient.connect(port: port, token: ana)
            let timeout = try await quiet.waitForClose()
            #expect(timeout?.reason == "heartbeat timeout")
            let flood = try await PhoenixTestClient.connect(port: port, token: ana)
            for index in 0..<10 {
                try? await flood.send(joinRef: nil, ref: "\(index)", topic: "phoenix", event: "heartbeat")
            }
            #expect(try await flood.waitForClose()?.reason == "too many messages")
            let garbage = try await PhoenixTestClient.connect(port: port, token: ana)
            try await garbage.sendText(#"{"not": "a frame"}"#)
            #expect(try await garbage.waitForClose()?.reason?.contains("join_ref") == true)
            let huge = try await PhoenixTestClient.connect(port: port, token: ana)
            let padding = String(repeating: "x", count: 100_000)
            // A valid frame, but 100 KB: over the 64 KiB frame limit.
            try? await huge.sendText(#"[null,"1","phoenix","heartbeat",""# + padding + #""]"#)
            _ = try await huge.waitForClose()
            #expect(try await api.call(.get, "/healthz").status == .ok)
        }
    }
    @Test(
        "a handshake on a kept-alive connection upgrades as on a new one; refused, it says Connection: close",
        arguments: StorageBackend.available)
    func upgradeOnReusedConnection(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            // Given a connection that has already carried a request, when it asks to upgrade, then it is a socket
            let socket = try await RawWebSocket.connect(port: port, token: ana, reusing: true)
            try await socket.readAsItArrives()
            try await socket.sendText(#"[null,"5","phoenix","heartbeat",{}]"#)
            let reply = try await socket.read { $0.textValue?.contains("phx_reply") == true }
            #expect(reply.textValue?.contains(#""5""#) == true && reply.textValue?.contains(#""ok""#) == true)
            // that joins a topic and hears what is posted there.
            try await socket.sendText(#"["1","2","community:feed","phx_join",{}]"#)
            _ = try await socket.read { $0.textValue?.contains(#""2""#) == true }
            _ = try await api.post(ana, "live on a reused connection")
            // (`read` throws if no such frame comes.)
            _ = try await socket.read { $0.textValue?.contains("live on a reused connection") == true }
            await socket.close()
            // A refused handshake, first or later on its connection, is answered 403 and says it closes.
            for reusing in [false, true] {
                do {
                    _ = try await RawWebSocket.connect(port: port, token: "spa_nope", reusing: reusing)
                    Issue.record("a bad token upgraded")
                } catch let failure as RawWebSocket.Failure {
                    #expect(failure.description.contains("HTTP/1.1 403"), "\(failure)")
                    #expect(failure.description.lowercased().contains("connection: close"), "\(failure)")
                }
            }
        }
    }

    @Test(
        "the socket answers pings, joins fragments, echoes the client's close, refuses binary and unmasked frames; refused upgrades get an answer",
        arguments: StorageBackend.available)
    func webSocketProtocol(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            let socket = try await RawWebSocket.connect(port: port, token: ana)
            try await socket.readAsItArrives()
            try await socket.send(opcode: 0x9, Array("still there?".utf8))
            #expect(try await socket.read { if case .pong = $0 { true } else { false } } == .pong("still there?"))
            // A heartbeat in three fragments is one message.
            let heartbeat = Array(#"[null,"7","phoenix","heartbeat",{}]"#.utf8)
            try await socket.send(opcode: 0x1, Array(heartbeat[..<10]), fin: false)
            try await socket.send(opcode: 0x0, Array(heartbeat[10..<20]), fin: false)
            try await socket.send(opcode: 0x0, Array(heartbeat[20...]))
            let reply = try await socket.read {
                if case .text(let text) = $0 { text.contains("phx_reply") } else { false }
            }
            let text = try #require(reply.textValue)
            #expect(text.contains(#""7""#) && text.contains(#""ok""#))
            // The client's close is answered with its code, and the server ends the connection.
            try await socket.send(opcode: 0x8, [0x03, 0xE8])
            #expect(try await socket.drainUntilClosed() == [.close(code: 1000, reason: "")])

            let binary = try await RawWebSocket.connect(port: port, token: ana)
            try await binary.readAsItArrives()
            try await binary.send(opcode: 0x2, [1, 2, 3])
            let refusal = try await binary.drainUntilClosed()
            #expect(refusal.count == 1)
            if case .close(let code, let reason) = refusal.first {
                #expect(code == 1003 && reason.contains("join_ref"))
            } else {
                Issue.record("expected a close frame, got \(refusal)")
            }
            // RFC 6455 §5.1: a server closes on a frame its client did not mask.
            let unmasked = try await RawWebSocket.connect(port: port, token: ana)
            try await unmasked.readAsItArrives()
            try await unmasked.send(opcode: 0x1, Array(#"[null,"1","phoenix","heartbeat",{}]"#.utf8), masked: false)
            let closed = try await unmasked.drainUntilClosed(timeout: .seconds(5))
            #expect(closed.first == .close(code: 1002, reason: "frames from a client are masked"))
            // RFC 6455 §5.2: a reserved bit set without a negotiated extension fails the connection.
            let reserved = try await RawWebSocket.connect(port: port, token: ana)
            try await reserved.readAsItArrives()
            try await reserved.send(opcode: 0x1, Array(#"[null,"1","phoenix","heartbeat",{}]"#.utf8), rsv1: true)
            let reservedClose = try await reserved.drainUntilClosed(timeout: .seconds(5))
            #expect(reservedClose.first.map { if case .close(1002, _) = $0 { true } else { false } } == true)
            // A refused upgrade gets the router's answer: a 403 problem, not a bare error.
            do {
                _ = try await RawWebSocket.connect(port: port, token: "spa_nope")
                Issue.record("a bad token upgraded")
            } catch let failure as RawWebSocket.Failure {
                #expect(failure.description.contains("HTTP/1.1 403"))
                #expect(failure.description.contains("application/problem+json"))
            }
            // A request that asks to upgrade and doesn't is answered like any other, not left waiting.
            let incomplete = try await RawWebSocket.request(
                port: port,
                "GET /socket/websocket?token=\(ana) HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"
            )
            #expect(incomplete.hasPrefix("HTTP/1.1 400"))
            let h2c = try await RawWebSocket.request(
                port: port,
                "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n\r\n")
            #expect(h2c.hasPrefix("HTTP/1.1 200"))
            #expect(try await api.call(.get, "/healthz").status == .ok)
        }
    }

    @Test(
        "a client that stops reading is cut off, and the others get every post on time",
        arguments: StorageBackend.available)
    func slowConsumer(backend: StorageBackend) async throws {
        try await TestApp.runLive(
            backend,
            configure: {
                $0.realtime.outboundBuffer = 2
                $0.realtime.slowConsumerGrace = .milliseconds(200)
                $0.realtime.sendBufferSize = 16 * 1024
                $0.postRules.newAccountAge = 0  // a new account's hourly cap is tested elsewhere
            }
        ) { api, port in
            let ana = try await api.user("ana")
            let fast = try await PhoenixTestClient.connect(port: port, token: try await api.user("bea"))
            _ = try await fast.join("community:feed", ref: "1")
            let cem = try await api.signup("cem")
            let stalled = try await RawWebSocket.connect(port: port, token: cem.accessToken)
            try await stalled.sendText(#"["1","1","community:feed","phx_join",{}]"#)
            _ = try await stalled.read { frame in
                if case .text(let text) = frame { return text.contains("phx_reply") }
                return false
            }
            // 60 posts of about 4 KB: more than the server's send buffer (capped, so a few hundred kilobytes
            // suffice), NIO's write buffer and a queue of 2 frames hold for a client that reads nothing.
            let body = String(repeating: "Deadlift day, heavy triples and a long cooldown. ", count: 80)
            var last: Post?
            for index in 0..<60 { last = try await api.post(ana, "\(index) \(body)") }
            let lastID = try #require(last).id.description
            _ = try await fast.next(timeout: .seconds(10)) {
                $0.event == "new_post" && $0.payload["id"]?.stringValue == lastID
            }
            #expect(fast.collected { $0.event == "new_post" }.count == 59, "the fast client got every post")
            // The server lets go of the stalled socket by itself (its presence leaves) while it still reads nothing…
            _ = try await fast.next {
                $0.event == "presence_diff" && $0.payload["leaves"]?.objectKeys == [cem.user.id.description]
            }
            // …and the stalled client, reading again, finds the connection ended short of the last post.
            let frames = try await stalled.drainUntilClosed()
            let posts = frames.filter { if case .text(let text) = $0 { text.contains("new_post") } else { false } }
            #expect(posts.count < 60)
            for case .close(let code, _) in frames { #expect(code == 1008) }  // told why, if it got that far
            let metrics = try await api.call(.get, "/metrics")
            #expect(
                String(buffer: metrics.body).contains(#"spotter_realtime_disconnects_total{reason="slow_consumer"}"#))
            #expect(try await api.call(.get, "/healthz").status == .ok)
            await fast.close()
        }
    }
}

@Suite("Realtime across nodes")
struct CrossNodeRealtimeTests {
    /// Two live apps on two PostgreSQL nodes of one database: `body` gets node A's API, node B's API and
    /// node B's port.
    static func withTwoNodes(
        _ body: @Sendable (APIClient, APIClient, Int) async throws -> Void
    ) async throws {
        try await StorageBackend.withTwoPostgresNodes { nodeA, nodeB in
            var configuration = AppConfiguration()
            configuration.bcryptCost = 4
            configuration.runsMaintenance = false
            configuration.port = 0
            let clock = ManualClock(Date())
            let appA = try await buildApplication(
                configuration: configuration, storage: nodeA, clock: clock, logger: StorageBackend.logger)
            let appB = try await buildApplication(
                configuration: configuration, storage: nodeB, clock: clock, logger: StorageBackend.logger)
            try await appA.test(.live) { clientA in
                try await appB.test(.live) { clientB in
                    try await body(
                        APIClient(client: clientA, clock: clock, storage: nodeA),
                        APIClient(client: clientB, clock: clock, storage: nodeB), try #require(clientB.port))
                }
            }
        }
    }

    /// Node B's listener may not be subscribed yet: `author` posts through node A until one of the posts
    /// reaches `socket` (bounded); returns the ids made and the frame that arrived.
    static func postUntilHeard(
        _ api: APIClient, _ author: String, on socket: PhoenixTestClient
    ) async throws -> (made: Set<String>, arrived: PhoenixMessage?) {
        var made: Set<String> = []
        var arrived: PhoenixMessage?
        for attempt in 0..<20 where arrived == nil {
            made.insert(try await api.post(author, "Made on node A, try \(attempt) #gym").id.description)
            arrived = try? await socket.next(timeout: .milliseconds(500)) { $0.event == "new_post" }
        }
        return (made, arrived)
    }

    @Test(
        "a post made through node A reaches a socket on node B (PostgreSQL LISTEN/NOTIFY)",
        .enabled(if: StorageBackend.postgresURL != nil))
    func crossNode() async throws {
        try await Self.withTwoNodes { apiA, apiB, portB in
            let ana = try await apiA.user("ana")
            let bea = try await apiB.user("bea")  // an account made on the other node works here too
            let socket = try await PhoenixTestClient.connect(port: portB, token: bea)
            _ = try await socket.join("community:feed", ref: "1")
            let (made, arrived) = try await Self.postUntilHeard(apiA, ana, on: socket)
            #expect(made.contains(try #require(arrived?.payload["id"]?.stringValue)))
            await socket.close()
        }
    }

    @Test(
        "signing out through node A closes the login's socket on node B",
        .enabled(if: StorageBackend.postgresURL != nil))
    func crossNodeRevocation() async throws {
        try await Self.withTwoNodes { apiA, _, portB in
            // Given Ana's socket on node B, and node B's listener proven up by a post from node A
            let ana = try await apiA.signup("ana")
            let socket = try await PhoenixTestClient.connect(port: portB, token: ana.accessToken)
            _ = try await socket.join("community:feed", ref: "1")
            #expect(try await Self.postUntilHeard(apiA, ana.accessToken, on: socket).arrived != nil)
            // When she signs out through node A
            #expect(try await apiA.call(.post, "/api/v1/auth/signout", token: ana.accessToken).status.code < 300)
            // Then node B closes her socket
            #expect(try await socket.waitForClose()?.reason == "login revoked")
        }
    }
}

extension JSONValue {
    var objectKeys: [String] {
        if case .object(let object) = self { return object.keys.sorted() }
        return []
    }
}
