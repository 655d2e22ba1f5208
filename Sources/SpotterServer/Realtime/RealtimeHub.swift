import Foundation
import Logging
import ServiceLifecycle
import SpotterCore
import SpotterModels

/// Every live socket of this node, what each joined, and the fan-out of domain events to them.
///
/// An event names a post; for each socket that should hear of it the hub loads the post *as that socket's
/// user sees it* (once per user per event), so a followers-only post only ever reaches sockets whose user
/// may see it, and counts are the ones that user would get from the REST API.
actor RealtimeHub {
    let storage: any SpotterStorage
    let logger: Logger
    private var connections: [UUID: RealtimeConnection] = [:]
    private var subscribers: [RealtimeTopic: Set<UUID>] = [:]

    init(storage: any SpotterStorage, logger: Logger) {
        self.storage = storage
        self.logger = logger
    }

    func add(_ connection: RealtimeConnection) { connections[connection.id] = connection }

    func remove(_ connection: RealtimeConnection) {
        connections[connection.id] = nil
        for topic in connection.topics { unsubscribe(connection, from: topic) }
    }

    func subscribe(_ connection: RealtimeConnection, to topic: RealtimeTopic) {
        subscribers[topic, default: []].insert(connection.id)
        if topic == .communityFeed {
            connection.send(.broadcast(topic: topic.description, event: "presence_state", payload: presenceState()))
            broadcastPresence(joins: [connection], leaves: [], except: connection.id)
        }
    }

    func unsubscribe(_ connection: RealtimeConnection, from topic: RealtimeTopic) {
        guard subscribers[topic]?.remove(connection.id) != nil else { return }
        if subscribers[topic]?.isEmpty == true { subscribers[topic] = nil }
        if topic == .communityFeed { broadcastPresence(joins: [], leaves: [connection], except: connection.id) }
    }

    var connectionCount: Int { connections.count }

    // MARK: Presence (Phoenix.Presence's shape)

    private func presenceState() -> JSONValue {
        let online = (subscribers[.communityFeed] ?? []).compactMap { connections[$0] }
        return Self.presence(online)
    }

    private func broadcastPresence(joins: [RealtimeConnection], leaves: [RealtimeConnection], except: UUID) {
        let diff = JSONValue.object(["joins": Self.presence(joins), "leaves": Self.presence(leaves)])
        for id in subscribers[.communityFeed] ?? [] where id != except {
            connections[id]?.send(
                .broadcast(topic: RealtimeTopic.communityFeed.description, event: "presence_diff", payload: diff))
        }
    }

    private static func presence(_ connections: [RealtimeConnection]) -> JSONValue {
        var users: [String: [JSONValue]] = [:]
        for connection in connections {
            users[connection.user.id.description, default: []].append(
                .object([
                    "phx_ref": .string(connection.id.uuidString.lowercased()),
                    "online_at": .number(connection.connectedAt.timeIntervalSince1970.rounded()),
                    "username": .string(connection.user.username),
                ]))
        }
        return .object(users.mapValues { .object(["metas": .array($0)]) })
    }

    // MARK: Events

    func deliver(_ event: DomainEvent) async {
        do {
            switch event {
            case .postCreated(let id, _):
                try await fanOut(id, event: "new_post", topics: [.feeds]) { try JSONValue(encoding: $0) }
            case .postUpdated(let id, _):
                try await fanOut(id, event: "post_updated", topics: [.feeds, .post]) { try JSONValue(encoding: $0) }
            case .postDeleted(let id, _):
                let payload = JSONValue.object(["id": .string(id.description)])
                for (topic, connection) in targets(for: id, topics: [.feeds, .post]) {
                    connection.send(.broadcast(topic: topic.description, event: "post_deleted", payload: payload))
                }
            case .kudosChanged(let id):
                try await fanOut(id, event: "post_likes_updated", topics: [.feeds, .post]) { post in
                    .object([
                        "id": .string(post.id.description), "likes_count": .number(Double(post.kudosCount)),
                        "liked_by_user_ids": .array(post.kudosPreview.map { .string($0.id.description) }),
                    ])
                }
            case .commentsChanged(let id):
                try await fanOut(id, event: "post_comments_updated", topics: [.feeds, .post]) { post in
                    .object(["id": .string(post.id.description), "comments_count": .number(Double(post.commentsCount))])
                }
            }
        } catch {
            logger.warning("realtime delivery failed", metadata: ["error": "\(error)"])
        }
    }

    private struct TopicKinds: OptionSet {
        let rawValue: Int
        static let feeds = TopicKinds(rawValue: 1)
        static let post = TopicKinds(rawValue: 2)
    }

    private func targets(for id: PostID, topics kinds: TopicKinds) -> [(RealtimeTopic, RealtimeConnection)] {
        subscribers.flatMap { topic, ids -> [(RealtimeTopic, RealtimeConnection)] in
            let wanted: Bool
            switch topic {
            case .communityFeed, .followingFeed: wanted = kinds.contains(.feeds)
            case .post(let postID): wanted = kinds.contains(.post) && postID == id
            case .user: wanted = false
            }
            return wanted ? ids.compactMap { connections[$0].map { (topic, $0) } } : []
        }
    }

    /// Sends `event` to each target socket whose user may see the post (and, on a Following feed, follows
    /// its author), with a payload made from the post as that user sees it.
    private func fanOut(
        _ id: PostID, event: String, topics kinds: TopicKinds, payload: (Post) throws -> JSONValue
    ) async throws {
        var views: [UserID: Post?] = [:]
        var follows: [UserID: Bool] = [:]
        for (topic, connection) in targets(for: id, topics: kinds) {
            let viewer = connection.user.id
            if views[viewer] == nil { views[viewer] = .some(try await storage.posts.post(id, viewer: viewer)) }
            guard let view = views[viewer] ?? nil else { continue }
            switch topic {
            case .communityFeed:
                guard view.visibility == .public else { continue }
            case .followingFeed(let owner):
                if owner != view.author.id {
                    if follows[owner] == nil {
                        follows[owner] =
                            try await storage.graph.relationship(of: owner, with: view.author.id).following
                            == .following
                    }
                    guard follows[owner] == true else { continue }
                }
            case .post, .user:
                break
            }
            connection.send(.broadcast(topic: topic.description, event: event, payload: try payload(view)))
        }
    }
}

/// Feeds the hub from the event bus for as long as the server runs.
struct RealtimeHubService: Service {
    let hub: RealtimeHub
    let events: any EventBus

    func run() async throws {
        for await event in events.subscribe().cancelOnGracefulShutdown() {
            await hub.deliver(event)
        }
    }
}
