import Foundation
import SpotterModels
import SpotterTestSupport
import Testing

/// Live notifications on a person's `user:<id>` topic.
@Suite("Notifications over the socket")
struct NotificationRealtimeTests {
    @Test(
        "a kudos arrives live as an inbox group with the new unread count; reading it updates the badge",
        arguments: StorageBackend.available)
    func live(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: { $0.postRules.newAccountAge = 0 }) { api, port in
            let ana = try await api.signup("ana")
            let bea = try await api.user("bea")
            let post = try await api.post(ana.accessToken, "Tempo run #run")
            let socket = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
            let topic = "user:\(ana.user.id)"
            #expect(try await socket.join(topic, ref: "1").payload["status"] == .string("ok"))

            _ = try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: bea)
            let live = try await socket.next { $0.topic == topic && $0.event == "notification" }
            #expect(live.payload["group_key"] == .string("kudos-\(post.id)"))
            #expect(live.payload["text"] == .string("bea gave kudos to your post"))
            let badge = try await socket.next { $0.topic == topic && $0.event == "unread_count" }
            #expect(badge.payload["unread"] == .number(1))

            _ = try await api.call(.post, "/api/v1/notifications/read", token: ana.accessToken, json: "{}")
            let cleared = try await socket.next { $0.topic == topic && $0.event == "unread_count" }
            #expect(cleared.payload["unread"] == .number(0))
            await socket.close()
        }
    }

    /// Ana with a post for each of `givers` people (signed up, with their tokens), listening on her topic.
    static func anaListening(
        _ api: APIClient, port: Int, givers: Int
    ) async throws -> (
        socket: PhoenixTestClient, topic: String, tokens: [String], posts: [Post]
    ) {
        let ana = try await api.signup("ana")
        var tokens: [String] = []
        var posts: [Post] = []
        for index in 1...givers {
            tokens.append(try await api.user("giver\(index)"))
            posts.append(try await api.post(ana.accessToken, "Run \(index)"))
        }
        let socket = try await PhoenixTestClient.connect(port: port, token: ana.accessToken)
        let topic = "user:\(ana.user.id)"
        #expect(try await socket.join(topic, ref: "1").payload["status"] == .string("ok"))
        return (socket, topic, tokens, posts)
    }

    @Test(
        "a burst of kudos: every notification arrives live, and the last badge after them counts them all",
        arguments: StorageBackend.available)
    func burst(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: { $0.postRules.newAccountAge = 0 }) { api, port in
            let (socket, topic, tokens, posts) = try await Self.anaListening(api, port: port, givers: 12)

            // At once, so the hub has several queued for Ana and sends only the last of their badges.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (token, post) in zip(tokens, posts) {
                    group.addTask { _ = try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: token) }
                }
                try await group.waitForAll()
            }
            var notified = 0
            var lastBadge: Double?
            while notified < tokens.count || lastBadge != Double(tokens.count) {
                let frame = try await socket.next { $0.topic == topic }
                if frame.event == "notification" {
                    notified += 1
                    lastBadge = nil
                } else if frame.event == "unread_count", case .number(let unread) = frame.payload["unread"] {
                    lastBadge = unread
                }
            }
            #expect(notified == tokens.count)
            await socket.close()
        }
    }

    @Test(
        "notifications one after another arrive at once, while the badge goes out at most once a second and settles",
        arguments: StorageBackend.available)
    func badgeInterval(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: { $0.postRules.newAccountAge = 0 }) { api, port in
            let (socket, topic, tokens, posts) = try await Self.anaListening(api, port: port, givers: 6)

            // One at a time, each notification seen before the next kudos: nothing queues, so only the
            // interval can hold a badge back.
            var badges = 0
            var last: Double?
            func read(_ frame: PhoenixMessage) {
                guard frame.event == "unread_count", case .number(let unread) = frame.payload["unread"] else { return }
                badges += 1
                last = unread
            }
            for (token, post) in zip(tokens, posts) {
                _ = try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: token)
                while true {
                    let frame = try await socket.next { $0.topic == topic }
                    if frame.event == "notification" { break }
                    read(frame)
                }
            }
            while last != Double(tokens.count) { read(try await socket.next { $0.topic == topic }) }
            #expect(badges < tokens.count, "\(badges) badges for \(tokens.count) notifications")
            await socket.close()
        }
    }
}
