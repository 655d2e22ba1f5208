import Foundation
import Logging
import NIOWebSocket
import ServiceLifecycle
import SpotterCore
import SpotterModels

/// Every live socket of this node, what each joined, and the fan-out of domain events to them.
///
/// The hub decides nothing about who sees what: `LiveAudience` (posts, counts, deletions), `PresencePolicy`
/// (who is online) and `TopicAccess` (joins) in SpotterCore do, and the hub sends each socket what they allow.
/// Sockets belong to a login and close when it is revoked (`DomainEvent.loginsRevoked`).
actor RealtimeHub {
    let storage: any SpotterStorage
    let audience: LiveAudience
    let access: TopicAccess
    let logger: Logger
    /// How long presence changes gather before one `presence_diff` carries them all.
    let presenceInterval: Duration
    /// See `RealtimeConfiguration.badgeInterval`.
    let badgeInterval: Duration
    var connections: [UUID: RealtimeConnection] = [:]
    /// Each person's sockets on this node.
    var byUser: [UserID: Set<UUID>] = [:]
    var subscribers: [RealtimeTopic: Set<UUID>] = [:]
    var pendingJoins: [UUID: RealtimeConnection] = [:]
    var pendingLeaves: [UUID: RealtimeConnection] = [:]
    var presenceFlushScheduled = false
    /// Community-feed sockets that receive presence (all but those that joined with `"presence": false`), with
    /// what decides whose presence each sees.
    var presenceListeners: [UUID: PresenceRelations] = [:]
    /// `presence_state` as everyone who sees exactly the public accounts gets it, encoded once until the next
    /// diff goes out (see `subscribe`).
    var sharedPresenceState: String?
    /// Logins revoked lately, for a socket whose token was checked just before the revocation and that joins
    /// the hub just after it.
    private var recentRevocations: [(user: UserID, logins: RevokedLogins, heard: ContinuousClock.Instant)] = []

    /// Each person's latest notification work, which their next waits for (see `inOrder`).
    private var userWork: [UserID: Task<Void, Never>] = [:]
    private var badgesQueued: [UserID: Int] = [:]
    /// When each person with a live socket last got their badge, and who has one waiting for its interval.
    private var lastBadge: [UserID: ContinuousClock.Instant] = [:]
    private var badgesDue: Set<UserID> = []
    /// Renders inbox groups for `notification` events.
    let notifications: NotificationService
    /// Who is in the app, for the delivery runners (`InAppPresence`).
    nonisolated let inApp: InAppPresence

    init(
        storage: any SpotterStorage, notifications: NotificationService, logger: Logger,
        presenceInterval: Duration = .milliseconds(500), badgeInterval: Duration = .seconds(1),
        links: MediaLinks? = nil,
        clock: any WallClock = SystemClock()
    ) {
        self.inApp = InAppPresence(storage: storage, clock: clock, logger: logger)
        self.storage = storage
        self.audience = LiveAudience(storage: storage, links: links)
        self.access = TopicAccess(storage: storage, links: links)
        self.notifications = notifications
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
        let now = ContinuousClock.now
        recentRevocations.removeAll { now - $0.heard > Self.revocationMemory }
        if recentRevocations.contains(where: { revoked($0.logins, of: $0.user, covers: connection) }) {
            connection.end(.loginRevoked)
            return
        }
        connections[connection.id] = connection
        if byUser[connection.user.id] == nil { inApp.arrived(connection.user.id) }
        byUser[connection.user.id, default: []].insert(connection.id)
    }

    /// Everyone with a socket on this node, for `InAppPresence.refresh`.
    var connectedPeople: [UserID] { Array(byUser.keys) }

    /// How long a revocation is kept for sockets still on their way in: far longer than an upgrade takes.
    private static let revocationMemory = Duration.seconds(60)

    private func revoked(_ logins: RevokedLogins, of user: UserID, covers connection: RealtimeConnection) -> Bool {
        connection.user.id == user && logins.covers(connection.login)
    }

    /// Closes the sockets of revoked logins, and remembers the revocation for sockets not yet added.
    /// Takes a person's sockets out of a group's topic the moment they stop being a member, and tells each
    /// client its join ended (`phx_close`), as a leave would. Their Following feed needs nothing: every event
    /// there is judged against membership when it is sent.
    private func leaveGroup(_ group: GroupID, user: UserID) {
        let topic = RealtimeTopic.group(group)
        for id in byUser[user] ?? [] {
            guard let connection = connections[id], case .some(let joinRef) = connection.joinRef(for: topic),
                connection.leave(topic)
            else { continue }
            unsubscribe(connection, from: topic)
            connection.send(
                PhoenixMessage(
                    joinRef: joinRef, ref: joinRef, topic: topic.description, event: PhoenixMessage.Event.close,
                    payload: .object([:])))
        }
    }

    private func endLogins(_ logins: RevokedLogins, of user: UserID) {
        recentRevocations.append((user, logins, .now))
        for id in byUser[user] ?? [] {
            guard let connection = connections[id], revoked(logins, of: user, covers: connection) else { continue }
            connection.end(.loginRevoked)
        }
    }

    /// Tells every socket the server is going away and closes it.
    func shutDown() {
        isShutDown = true
        for connection in connections.values { connection.close(.goingAway, reason: Self.shutdownReason) }
    }

    private static let shutdownReason = SocketWriter.shutdownReason

    func remove(_ connection: RealtimeConnection) {
        connections[connection.id] = nil
        if byUser[connection.user.id]?.remove(connection.id) != nil, byUser[connection.user.id]?.isEmpty == true {
            byUser[connection.user.id] = nil
            inApp.left(connection.user.id)
        }
        for topic in connection.topics { unsubscribe(connection, from: topic) }
    }

    func unsubscribe(_ connection: RealtimeConnection, from topic: RealtimeTopic) {
        guard subscribers[topic]?.remove(connection.id) != nil else { return }
        if subscribers[topic]?.isEmpty == true {
            subscribers[topic] = nil
            if case .user(let user) = topic { lastBadge[user] = nil }
        }
        if topic == .communityFeed { leavePresence(connection) }
    }

    var connectionCount: Int { connections.count }

    /// Ends the sockets whose clients sent nothing, not even a heartbeat, for `timeout`.
    func endIdle(now: ContinuousClock.Instant, timeout: Duration) {
        for connection in connections.values where connection.isIdle(now: now, timeout: timeout) {
            connection.end(.heartbeatTimeout)
        }
    }

    // MARK: Events

    func deliver(_ event: DomainEvent) async {
        do {
            switch event {
            case .postCreated(let id, _):
                try await fanOut(id, topics: [.feeds]) { .newPost($0) }
            case .postUpdated(let id, _):
                try await fanOut(id, topics: [.feeds, .post]) { .postUpdated($0) }
            case .postDeleted(let id, _):
                let targets = targets(for: id, topics: [.feeds, .post])
                guard !targets.isEmpty, let audience = try await audience.ofDeletedPost(id) else { return }
                for (topic, connection) in targets where audience.reaches(connection.user.id, on: topic) {
                    if let frame = PushFrame(topic: topic, push: .postDeleted(id)).encoded() {
                        connection.send(text: frame)
                    }
                }
            case .kudosChanged(let id):
                try await fanOut(id, topics: [.feeds, .post]) { post in
                    .likesUpdated(
                        LikesUpdate(
                            id: post.id, likesCount: post.kudosCount, likedByUserIDs: post.kudosPreview.map(\.id)))
                }
            case .commentsChanged(let id):
                try await fanOut(id, topics: [.feeds, .post]) { post in
                    .commentsUpdated(CommentsUpdate(id: post.id, commentsCount: post.commentsCount))
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
                    await hub.send(.user(recipient), .notification(found.group))
                    if let counts = found.counts {
                        await hub.send(.user(recipient), .unreadCount(counts))
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
            case .loginsRevoked(let user, let logins):
                endLogins(logins, of: user)
            case .relationshipChanged(let one, let other):
                try await presenceRelationsChanged(one, other)
            case .nostrEventStored:
                return  // the relay's own hub serves it (`NostrRelayHub`)
            case .groupAccessEnded(let group, let user):
                leaveGroup(group, user: user)
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
    /// it: work that falls behind in a burst catches up instead of falling further behind.
    private func takeBadge(of user: UserID) -> Bool {
        let left = (badgesQueued[user] ?? 1) - 1
        badgesQueued[user] = left > 0 ? left : nil
        return left == 0
    }

    /// Whether a person's badge may go out now. Within `badgeInterval` of their last one it goes out when the
    /// interval ends instead, once however many notifications arrive meanwhile: reading the badge was the
    /// dearest part of a live notification when a burst read it for each.
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
        send(.user(user), .unreadCount(counts))
    }

    private func send(_ topic: RealtimeTopic, _ push: RealtimePush) {
        guard let ids = subscribers[topic], let frame = PushFrame(topic: topic, push: push).encoded()
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
            case .communityFeed, .followingFeed, .group: wanted = kinds.contains(.feeds)
            case .post(let postID): wanted = kinds.contains(.post) && postID == id
            case .user: wanted = false
            }
            return wanted ? ids.compactMap { connections[$0].map { (topic, $0) } } : []
        }
    }

    /// Sends `event` to each target socket that `LiveAudience` lets hear of the post, with a payload made from
    /// the post as that socket's user sees it.
    ///
    /// Sockets that share the post's anonymous view share one encoding per topic and kudos state: per socket
    /// this costs a few set lookups and a dictionary hit, not a copy of the post, which with thousands of sockets
    /// was most of the hub's work.
    private func fanOut(
        _ id: PostID, topics kinds: TopicKinds, push: (Post) -> RealtimePush
    ) async throws {
        let targets = targets(for: id, topics: kinds)
        guard !targets.isEmpty, var audience = try await audience.ofPost(id) else { return }
        var frames: [SharedFrameKey: WireFrame?] = [:]
        // A shared view's frame per kudos state, encoded once and re-headed for each further topic.
        var encoded: [SharedFrameKey.View: RetopicedFrame] = [:]
        var batch = OutboundBatch()
        // Frames go out together once every target is decided, one event-loop task per loop. If a read fails
        // part way, the frames decided before it still go out (the defer).
        defer { batch.send() }
        for (topic, connection) in targets {
            let view = try await audience.view(of: connection.user.id, on: topic)
            switch view {
            case nil:
                continue
            case .shared(let kudosedByMe), .followers(let kudosedByMe):
                let followers = if case .followers = view { true } else { false }
                guard var post = followers ? audience.followersView : audience.shared else { continue }
                let shared = SharedFrameKey.View(kudosedByMe: kudosedByMe, followers: followers)
                let key = SharedFrameKey(topic: topic, view: shared)
                if frames[key] == nil {
                    var text = encoded[shared]?.frame(for: topic)
                    if text == nil {
                        post.kudosedByMe = kudosedByMe
                        text = PushFrame(topic: topic, push: push(post)).encoded()
                        encoded[shared] = text.flatMap { RetopicedFrame(frame: $0, topic: topic) }
                    }
                    frames[key] = .some(text.map { WireFrame(text: $0) })
                }
                if let frame = frames[key] ?? nil { batch.add(frame, to: connection) }
            case .own(let post):
                if let text = PushFrame(topic: topic, push: push(post)).encoded() {
                    batch.add(text: text, to: connection)
                }
            }
        }
    }

    /// Sockets sharing the anonymous view, or the followers', get the same frame per topic and kudos state.
    private struct SharedFrameKey: Hashable {
        struct View: Hashable {
            let kudosedByMe: Bool
            /// The followers' view rather than the anonymous one.
            let followers: Bool
        }

        let topic: RealtimeTopic
        let view: View
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
                // Cancelled as the server stops, which ends the stream. Not `cancelOnGracefulShutdown()` on the
                // stream: that merges every event with the shutdown signal through AsyncAlgorithms' `merge`, a
                // child task's hand-over and some twenty generic type look-ups per event (callgrind, keyed kudos).
                await cancelWhenGracefulShutdown {
                    for await event in events.subscribe() { await hub.deliver(event) }
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
            group.addTask {
                // Who arrived and left, written a moment later; everyone still here, vouched for again.
                try? await cancelWhenGracefulShutdown {
                    var sinceRefresh = Duration.zero
                    while true {
                        try await Task.sleep(for: .milliseconds(100))
                        await hub.inApp.flush()
                        sinceRefresh += .milliseconds(100)
                        if sinceRefresh >= InAppPresence.refreshInterval {
                            sinceRefresh = .zero
                            await hub.inApp.refresh(await hub.connectedPeople)
                        }
                    }
                }
            }
        }
        await hub.shutDown()
        await hub.inApp.flush()
    }
}
