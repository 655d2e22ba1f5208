import Foundation
import SpotterCore
import SpotterModels

/// Shorthands for realtime scenario tests.
extension PhoenixTestClient {
    /// The post ids carried by collected frames of `event` on `topic`.
    func ids(_ event: String, on topic: String) -> Set<String> {
        Set(collected { $0.event == event && $0.topic == topic }.compactMap { $0.payload["id"]?.stringValue })
    }

    /// Waits for the `new_post` of `post` on `topic`: every event published before that post has been handled
    /// for this socket by then (the hub handles events in order), so what did not arrive will not.
    func waitForPost(_ post: Post, on topic: String) async throws {
        let id = post.id.description
        _ = try await next { $0.event == "new_post" && $0.topic == topic && $0.payload["id"]?.stringValue == id }
    }

    /// Presence frames (state or diff joins) that list `user`, collected so far.
    func presenceJoins(of user: UserID) -> [PhoenixMessage] {
        collected { Self.lists($0, user, in: "joins") }
    }

    /// Waits for a presence frame that lists `user` as present (in `presence_state` or a diff's joins).
    @discardableResult
    func waitForPresence(of user: UserID) async throws -> PhoenixMessage {
        try await next { Self.lists($0, user, in: "joins") }
    }

    /// Waits for a `presence_diff` whose leaves list `user`.
    @discardableResult
    func waitForLeave(of user: UserID) async throws -> PhoenixMessage {
        try await next { Self.lists($0, user, in: "leaves") }
    }

    private static func lists(_ frame: PhoenixMessage, _ user: UserID, in part: String) -> Bool {
        let key = user.description
        switch frame.event {
        case "presence_state": return part == "joins" && frame.payload.objectKeys.contains(key)
        case "presence_diff": return frame.payload[part]?.objectKeys.contains(key) == true
        default: return false
        }
    }
}

extension APIClient {
    func mute(_ token: String, _ username: String) async throws {
        let response = try await call(.post, "/api/v1/users/\(username)/mute", token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
    }

    func block(_ token: String, _ username: String) async throws {
        let response = try await call(.post, "/api/v1/users/\(username)/block", token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
    }

    func approve(_ token: String, _ username: String) async throws {
        let response = try await call(.post, "/api/v1/me/follow-requests/\(username)/approve", token: token)
        guard response.status.code < 300 else { throw UnexpectedStatus(response: response) }
    }

    func makePrivate(_ token: String) async throws {
        let response = try await call(.patch, "/api/v1/me", token: token, json: #"{"privacy":"private"}"#)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
    }

    func delete(_ token: String, _ post: Post) async throws {
        let response = try await call(.delete, "/api/v1/posts/\(post.id)", token: token)
        guard response.status.code < 300 else { throw UnexpectedStatus(response: response) }
    }

    func kudos(_ token: String, _ post: Post) async throws {
        let response = try await call(.post, "/api/v1/posts/\(post.id)/kudos", token: token)
        guard response.status.code < 300 else { throw UnexpectedStatus(response: response) }
    }

    /// The ids of a REST feed's first page.
    func feedIDs(_ path: String, token: String) async throws -> Set<String> {
        Set(try await feed(path + "?limit=50", token: token).items.map(\.id.description))
    }
}
