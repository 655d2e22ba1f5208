import Foundation
import Logging
import NIOWebSocket
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
    /// How long presence changes gather before one `presence_diff` carries them all.
    let presenceInterval: Duration
    /// See `RealtimeConfiguration.badgeInterval`.
    let badgeInterval: Duration
    private var connections: [UUID: RealtimeConnection] = [:]
    private var subscribers: [RealtimeTopic: Set<UUID>] = [:]
    private var pendingJoins: [UUID: RealtimeConnection] = [:]
    private var pendingLeaves: [UUID: RealtimeConnection] = [:]
    private var presenceFlushScheduled = false
    /// Community-feed sockets that receive presence (all but those that joined with `"presence": false`).
    private var presenceListeners: Set<UUID> = []
    /// `presence_state`, encoded once until the next diff goes out (see `subscribe`).
    private var presenceStateFrame: String?

    /// Each person's latest notification work, which their next waits for (see `inOrder`).
    private var userWork: [UserID: Task<Void, Never>] = [:]
    private var badgesQueued: [UserID: Int] = [:]
    /// When each person with a live socket last got their badge, and who has one waiting for its interval.
    private var lastBadge: [UserID: ContinuousClock.Instant] = [:]
    private var badgesDue: Set<UserID> = []
    /// Renders inbox groups for `notification` events.
    let notifications: NotificationService

    init(
        storage: any SpotterStorage, logger: Logger, presenceInterval: Duration = .milliseconds(500),
        badgeInterval: Duration = .seconds(1)
    ) {
        self.storage = storage
        self.notifications = NotificationService(storage: storage, clock: SystemClock())
        self.logger = logger
        self.presenceInterval = presenceInterval
        self.badgeInterval = badgeInterval
    }

    /// Set once the hub stops: sockets no longer have a task the server's shutdown would end, so the hub closes
    /// them, and any that finish upgrading afterwards.
    private var isShutDown = false

    func add(_ connection: RealtimeConnection) {
        guard !isShutDown else {
            connection.close(.goingAway, reason: Self.shutdownReason)
            return
        }
        connections[connection.id] = connection
    }

    /// Tells every socket the server is going away and closes it.
    func shutDown() {
        isShutDown = true
        for connection in connections.values { connection.close(.goingAway, reason: Self.shutdownReason) }
    }

    private static let shutdownReason = "server shutting down"

    func remove(_ connection: RealtimeConnection) {
        connections[connection.id] = nil
        for topic in connection.topics { unsubscribe(connection, from: topic) }
    }

    /// Subscribes a socket. On the community feed everyone counts as present, and those who want presence get
    /// `presence_state` now and the diffs after. The state is encoded once per diff interval rather than per
    /// join (it lists everyone, so per join it would cost O(N²) in a join storm); a joiner may get it without
    /// the latest joins and leaves, which the next diff carries, and Phoenix clients merge the two.
    func subscribe(_ connection: RealtimeConnection, to topic: RealtimeTopic, presence: Bool = true) {
        subscribers[topic, default: []].insert(connection.id)
        guard topic == .communityFeed else { return }
        pendingJoins[connection.id] = connection
        schedulePresenceFlush()
        guard presence else { return }
        presenceListeners.insert(connection.id)
        if presenceStateFrame == nil {
            presenceStateFrame =
                PhoenixMessage.broadcast(topic: topic.description, event: "presence_state", payload: presenceState())
                .encoded()
        }
        if let presenceStateFrame { connection.send(text: presenceStateFrame) }
    }

    func unsubscribe(_ connection: RealtimeConnection, from topic: RealtimeTopic) {
        guard subscribers[topic]?.remove(connection.id) != nil else { return }
        if subscribers[topic]?.isEmpty == true {
            subscribers[topic] = nil
            if case .user(let user) = topic { lastBadge[user] = nil }
        }
        if topic == .communityFeed {
            // Sent even if its join is still pending: someone's presence_state may already list it.
            pendingJoins[connection.id] = nil
            pendingLeaves[connection.id] = connection
            presenceListeners.remove(connection.id)
            schedulePresenceFlush()
        }
    }

    var connectionCount: Int { connections.count }

    /// Ends the sockets whose clients sent nothing, not even a heartbeat, for `timeout`.
    func endIdle(now: ContinuousClock.Instant, timeout: Duration) {
        for connection in connections.values where connection.isIdle(now: now, timeout: timeout) {
            connection.end(.heartbeatTimeout)
        }
    }

    // MARK: Presence (Phoenix.Presence's shape)

    private func presenceState() -> JSONValue {
        let online = (subscribers[.communityFeed] ?? []).compactMap { connections[$0] }
        return Self.presence(online)
    }

    /// Presence changes are sent in batches: one diff per interval instead of one per change, so 10,000 people
    /// joining costs each subscriber a few frames rather than 10,000 (Phoenix's own Tracker batches between
    /// nodes the same way). Everyone gets the same diff, joiners too: as in Phoenix, clients merge presences by
    /// `phx_ref`, so a join they already had from `presence_state` changes nothing.
    private func schedulePresenceFlush() {
        guard !presenceFlushScheduled else { return }
        presenceFlushScheduled = true
        Task { [presenceInterval] in
            try? await Task.sleep(for: presenceInterval)
            self.flushPresence()  // the task runs on this actor
        }
    }

    private func flushPresence() {
        presenceFlushScheduled = false
        guard !pendingJoins.isEmpty || !pendingLeaves.isEmpty else { return }
        presenceStateFrame = nil
        let (joins, leaves) = (Array(pendingJoins.values), Array(pendingLeaves.values))
        pendingJoins = [:]
        pendingLeaves = [:]
        guard !presenceListeners.isEmpty,
            let frame = PhoenixMessage.broadcast(
                topic: RealtimeTopic.communityFeed.description, event: "presence_diff",
                payload: .object(["joins": Self.presence(joins), "leaves": Self.presence(leaves)])
            ).encoded()
        else { return }
        RealtimeConnection.broadcast(frame, to: presenceListeners.compactMap { connections[$0] })
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
                try await fanOut(id, event: "new_post", topics: [.feeds]) { $0 }
            case .postUpdated(let id, _):
                try await fanOut(id, event: "post_updated", topics: [.feeds, .post]) { $0 }
            case .postDeleted(let id, _):
                let payload = JSONValue.object(["id": .string(id.description)])
                for (topic, connection) in targets(for: id, topics: [.feeds, .post]) {
                    connection.send(.broadcast(topic: topic.description, event: "post_deleted", payload: payload))
                }
            case .kudosChanged(let id):
                try await fanOut(id, event: "post_likes_updated", topics: [.feeds, .post]) { post in
                    JSONValue.object([
                        "id": .string(post.id.description), "likes_count": .number(Double(post.kudosCount)),
                        "liked_by_user_ids": .array(post.kudosPreview.map { .string($0.id.description) }),
                    ])
                }
            case .commentsChanged(let id):
                try await fanOut(id, event: "post_comments_updated", topics: [.feeds, .post]) { post in
                    JSONValue.object([
                        "id": .string(post.id.description), "comments_count": .number(Double(post.commentsCount)),
                    ])
                }
            case .notificationCreated(let id, let recipient):
                guard hasSockets(on: .user(recipient)) else { return }
                queueBadge(for: recipient)
                inOrder(for: recipient) { hub in
                    var badge = await hub.takeBadge(of: recipient)
                    if badge { badge = await hub.badgeGoesNow(to: recipient) }
                    guard let found = try await hub.notifications.group(of: id, withCounts: badge) else {
                        // Earlier queued work left the badge to this one.
                        if badge { try await hub.sendCounts(to: recipient) }
                        return
                    }
                    await hub.send(.user(recipient), event: "notification", payload: found.group)
                    if let counts = found.counts {
                        await hub.send(.user(recipient), event: "unread_count", payload: counts)
                    }
                }
            case .notificationCountsChanged(let user):
                guard hasSockets(on: .user(user)) else { return }
                queueBadge(for: user)
                inOrder(for: user) { hub in
                    guard await hub.takeBadge(of: user) else { return }
                    await hub.noteBadge(to: user)
                    try await hub.sendCounts(to: user)
                }
            }
        } catch {
            logger.warning("realtime delivery failed", metadata: ["error": "\(error)"])
        }
    }

    private func hasSockets(on topic: RealtimeTopic) -> Bool { subscribers[topic]?.isEmpty == false }

    /// Runs a person's notification work after their earlier work, and beside everyone else's.
    ///
    /// Rendering a group takes a few queries. Done one event after another, a burst of notifications for
    /// many people queued behind each other (and behind the posts' fan-out) and waited seconds under load;
    /// one person's events still go in order, so their badge never steps back to an older count.
    private func inOrder(for user: UserID, _ work: @escaping @Sendable (RealtimeHub) async throws -> Void) {
        let previous = userWork[user]
        let task = Task {
            await previous?.value
            do {
                try await work(self)
            } catch {
                logger.warning("realtime notification failed", metadata: ["error": "\(error)"])
            }
        }
        userWork[user] = task
        Task {
            await task.value
            self.finished(task, of: user)
        }
    }

    private func finished(_ task: Task<Void, Never>, of user: UserID) {
        if userWork[user] == task { userWork[user] = nil }
    }

    /// Counts a person's queued work that ends by sending their badge.
    private func queueBadge(for user: UserID) { badgesQueued[user, default: 0] += 1 }

    /// Takes one queued badge off: `true` when no later work of theirs will send one, so this one must.
    ///
    /// A badge is a count, and only the newest matters. Reading it is the dearest part of a live
    /// notification (up to 100 rows checked), so when a burst queues several, only the last reads and sends
    /// it: under 1,000 notifications a second, work that falls behind catches up instead of falling
    /// further behind (issue 8).
    private func takeBadge(of user: UserID) -> Bool {
        let left = (badgesQueued[user] ?? 1) - 1
        badgesQueued[user] = left > 0 ? left : nil
        return left == 0
    }

    /// Whether a person's badge may go out now. Within `badgeInterval` of their last one it goes out when the
    /// interval ends instead, once however many notifications arrive meanwhile: reading the badge was the
    /// dearest part of a live notification, a seventh of the server's CPU at 1,000 notifications a second,
    /// when a burst read it for each (issue 8).
    private func badgeGoesNow(to user: UserID) -> Bool {
        let now = ContinuousClock.now
        guard let last = lastBadge[user], now < last + badgeInterval else {
            lastBadge[user] = now
            return true
        }
        if badgesDue.insert(user).inserted {
            Task {
                try? await Task.sleep(until: last + badgeInterval)
                self.sendDueBadge(to: user)  // the task runs on this actor
            }
        }
        return false
    }

    private func noteBadge(to user: UserID) { lastBadge[user] = .now }

    /// The badge a burst held back, after that person's queued work.
    private func sendDueBadge(to user: UserID) {
        badgesDue.remove(user)
        guard hasSockets(on: .user(user)) else { return }
        queueBadge(for: user)
        inOrder(for: user) { hub in
            guard await hub.takeBadge(of: user) else { return }
            guard await hub.badgeGoesNow(to: user) else { return }
            try await hub.sendCounts(to: user)
        }
    }

    /// The badge, on every live session of the user.
    private func sendCounts(to user: UserID) async throws {
        let counts = try await storage.notifications.counts(of: user)
        send(.user(user), event: "unread_count", payload: counts)
    }

    private func send(_ topic: RealtimeTopic, event: String, payload: some Encodable) {
        guard let ids = subscribers[topic],
            let frame = BroadcastFrame(topic: topic.description, event: event, payload: payload).encoded()
        else { return }
        RealtimeConnection.broadcast(frame, to: ids.compactMap { connections[$0] })
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
    ///
    /// A post everyone may see looks the same to everyone who has no block with anyone, but for
    /// `kudosed_by_me`: those sockets share one read and one encoding per topic and kudos state. Only people
    /// with blocks, and posts not visible to everyone, are read viewer by viewer.
    private func fanOut<Payload: Encodable>(
        _ id: PostID, event: String, topics kinds: TopicKinds, payload: (Post) throws -> Payload
    ) async throws {
        let targets = targets(for: id, topics: kinds)
        guard !targets.isEmpty else { return }
        let shared = try await sharedView(of: id)
        var views: [UserID: Post?] = [:]
        var follows: [UserID: Bool] = [:]
        var frames: [SharedFrameKey: WireFrame?] = [:]
        var batch = OutboundBatch()
        // Frames go out together once every target is decided, one event-loop task per loop. If a read fails
        // part way, the frames decided before it still go out (the defer).
        defer { batch.send() }
        for (topic, connection) in targets {
            let viewer = connection.user.id
            if let shared, !shared.peopleInBlocks.contains(viewer) {
                // The shared view is checked and encoded in place: per socket this costs two set lookups and a
                // dictionary hit, not a copy of the post (at 10,000 sockets that copying was the hub's cost).
                guard try await reaches(topic, post: shared.post, follows: &follows) else { continue }
                let key = SharedFrameKey(topic: topic, kudosedByMe: shared.kudosGivers.contains(viewer))
                if frames[key] == nil {
                    var post = shared.post
                    post.kudosedByMe = key.kudosedByMe
                    frames[key] = .some(
                        BroadcastFrame(topic: topic.description, event: event, payload: try payload(post))
                            .encoded().map { WireFrame(text: $0) })
                }
                if let frame = frames[key] ?? nil { batch.add(frame, to: connection) }
            } else {
                if views[viewer] == nil { views[viewer] = .some(try await storage.posts.post(id, viewer: viewer)) }
                guard let own = views[viewer] ?? nil, try await reaches(topic, post: own, follows: &follows) else {
                    continue
                }
                if let text = BroadcastFrame(topic: topic.description, event: event, payload: try payload(own))
                    .encoded()
                {
                    batch.add(text: text, to: connection)
                }
            }
        }
    }

    /// Sockets sharing the anonymous view get the same frame per topic and kudos state.
    private struct SharedFrameKey: Hashable {
        let topic: RealtimeTopic
        let kudosedByMe: Bool
    }

    /// Whether a post the socket's user may see belongs on `topic`: the community feed shows public posts, a
    /// Following feed the posts of people its owner follows (and the owner's own).
    private func reaches(_ topic: RealtimeTopic, post: Post, follows: inout [UserID: Bool]) async throws -> Bool {
        switch topic {
        case .communityFeed:
            return post.visibility == .public
        case .followingFeed(let owner):
            guard owner != post.author.id else { return true }
            if follows[owner] == nil {
                follows[owner] =
                    try await storage.graph.relationship(of: owner, with: post.author.id).following == .following
            }
            return follows[owner] == true
        case .post, .user:
            return true
        }
    }

    /// The view of a post shared by everyone outside `peopleInBlocks`: the anonymous view, which equals
    /// theirs (the same rule and counts; blocks are the only viewer-dependent filter) but for their own kudos.
    /// Nil when the post isn't visible to everyone (followers-only, a private account, deleted).
    private struct SharedView {
        var post: Post
        var peopleInBlocks: Set<UserID>
        var kudosGivers: Set<UserID>
    }

    private func sharedView(of id: PostID) async throws -> SharedView? {
        guard let post = try await storage.posts.post(id, viewer: nil) else { return nil }
        return SharedView(
            post: post, peopleInBlocks: try await storage.graph.peopleInBlocks(),
            kudosGivers: try await storage.posts.kudosGivers(of: id))
    }
}

/// Feeds the hub from the event bus for as long as the server runs, and sweeps out quiet sockets: one sweep
/// for all of them every quarter of the idle timeout (at most every 5 s), rather than a timer per socket.
struct RealtimeHubService: Service {
    let hub: RealtimeHub
    let events: any EventBus
    let idleTimeout: Duration

    func run() async throws {
        let (hub, events, idleTimeout) = (hub, events, idleTimeout)
        let interval = max(.milliseconds(20), min(.seconds(5), idleTimeout / 4))
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in events.subscribe().cancelOnGracefulShutdown() {
                    await hub.deliver(event)
                }
            }
            group.addTask {
                try? await cancelWhenGracefulShutdown {
                    while true {
                        try await Task.sleep(for: interval)
                        await hub.endIdle(now: .now, timeout: idleTimeout)
                    }
                }
            }
        }
        await hub.shutDown()
    }
}
