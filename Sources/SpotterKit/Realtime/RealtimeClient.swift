import Foundation
import Logging
import SpotterModels

/// What the realtime socket delivers, once per post id and in order of arrival.
public enum RealtimeEvent: Sendable, Equatable {
    /// A post new to this client: pushed live, or replayed after a reconnect (`since`).
    case newPost(Post, topic: RealtimeTopic)
    /// Any other push on a topic (`postUpdated`, `likesUpdated`, `presenceDiff`, …), typed. Events this
    /// version does not know are left out.
    case push(RealtimePush, topic: RealtimeTopic)
    /// Too much was missed on the topic to replay: reload it over REST.
    case reset(topic: RealtimeTopic)
    /// The socket opened (true) or was lost (false): for an offline indicator.
    case connection(Bool)
}

/// The live connection: a thin I/O shell around `RealtimeMachine`, over a `WebSocketTransport`
/// (HummingbirdWSClient by default, which runs on Linux and Apple platforms alike).
///
/// ```swift
/// let realtime = RealtimeClient(baseURL: url) { try await session.currentAccessToken() }
/// await realtime.join(.communityFeed)
/// for await event in realtime.events {
///     if case .newPost(let post, _) = event { feed.insert(post) }
/// }
/// ```
public actor RealtimeClient {
    public typealias TokenProvider = @Sendable () async throws -> String

    public nonisolated let baseURL: URL
    /// Everything the socket delivers; ends when the client is released.
    public nonisolated let events: AsyncStream<RealtimeEvent>
    private let continuation: AsyncStream<RealtimeEvent>.Continuation
    private let token: TokenProvider
    private let transport: any WebSocketTransport
    private let logger: Logger
    private var machine: RealtimeMachine
    private let origin = ContinuousClock.now
    /// Each socket gets a number; what an old socket reports after it was replaced is ignored.
    private var generation = 0
    private var socket: Task<Void, Never>?
    private var writer: (any WebSocketConnection)?
    private var timer: Task<Void, Never>?
    private var seen = SeenPosts(capacity: 5000)
    private var connectedHandlers: [@Sendable () async -> Void] = []
    private var lastSend: Task<Void, Never>?

    /// - Parameter token: asked on every connect, so a reconnect never replays an expired token.
    public init(
        baseURL: URL, schedule: RealtimeSchedule = RealtimeSchedule(),
        transport: any WebSocketTransport = HummingbirdWebSocketTransport(), logger: Logger? = nil,
        token: @escaping TokenProvider
    ) {
        self.baseURL = baseURL
        self.token = token
        self.transport = transport
        self.machine = RealtimeMachine(schedule: schedule)
        self.logger = logger ?? Logger(label: "spotterkit.realtime")
        (events, continuation) = AsyncStream.makeStream(of: RealtimeEvent.self)
    }

    deinit { continuation.finish() }

    /// Joins a topic now and after every reconnect (connecting if needed).
    public func join(_ topic: RealtimeTopic) { apply(.join(topic.description)) }
    public func leave(_ topic: RealtimeTopic) { apply(.leave(topic.description)) }
    /// Connects (again), for a start or a return to the foreground.
    public func start() { apply(.start) }
    /// Closes for the background; `start()` resumes every topic where it left off.
    public func background() { apply(.background) }
    /// Closes and forgets every topic.
    public func signOut() { apply(.signOut) }

    public var phase: RealtimeMachine.Phase { machine.phase }

    /// Runs `handler` each time the socket opens (the network is back): for draining the outbox, without
    /// taking `events` from whoever reads it.
    public func onConnected(_ handler: @escaping @Sendable () async -> Void) { connectedHandlers.append(handler) }

    // MARK: The machine's inputs and outputs

    private var now: Duration { ContinuousClock.now - origin }

    private func apply(_ input: RealtimeMachine.Input) {
        for output in machine.handle(input, now: now) { perform(output) }
        scheduleTick()
    }

    private func perform(_ output: RealtimeMachine.Output) {
        switch output {
        case .openSocket:
            open()
        case .closeSocket:
            close()
        case .sendHeartbeat(let ref):
            send(
                PhoenixMessage(
                    joinRef: nil, ref: ref, topic: "phoenix", event: PhoenixMessage.Event.heartbeat,
                    payload: .object([:])))
        case .sendJoin(let ref, let topic, let since):
            send(
                PhoenixMessage(
                    joinRef: ref, ref: ref, topic: topic, event: PhoenixMessage.Event.join,
                    payload: .object(since.map { ["since": .string($0)] } ?? [:])))
        case .sendLeave(let ref, let topic):
            send(
                PhoenixMessage(
                    joinRef: nil, ref: ref, topic: topic, event: PhoenixMessage.Event.leave,
                    payload: .object([:])))
        }
    }

    /// One timer, always for the machine's next deadline.
    private func scheduleTick() {
        timer?.cancel()
        guard let deadline = machine.nextDeadline else { return }
        let wait = max(deadline - now, .zero)
        timer = Task { [weak self] in
            try? await Task.sleep(for: wait)
            guard !Task.isCancelled else { return }
            await self?.apply(.tick)
        }
    }

    // MARK: The socket

    private func open() {
        generation += 1
        let current = generation
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        let path = components?.path ?? ""
        components?.scheme = baseURL.scheme == "https" ? "wss" : "ws"
        components?.path = path.trimmingSuffix("/") + "/socket/websocket"
        let base = components?.url
        socket = Task { [token, transport, logger] in
            do {
                guard let base else { throw URLError(.badURL) }
                let token = try await token()
                var url = URLComponents(url: base, resolvingAgainstBaseURL: false)
                url?.queryItems = [
                    URLQueryItem(name: "vsn", value: "2.0.0"), URLQueryItem(name: "token", value: token),
                ]
                guard let address = url?.url else { throw URLError(.badURL) }
                try await transport.run(
                    url: address, opened: { await self.opened($0, generation: current) },
                    received: { await self.received($0, generation: current) })
            } catch {
                logger.debug("realtime socket failed", metadata: ["error": "\(error)"])
            }
            self.closed(generation: current)  // this task runs on the actor
        }
    }

    private func close() {
        generation += 1  // whatever the old socket reports from now on is stale
        let (writer, socket) = (self.writer, self.socket)
        self.writer = nil
        self.socket = nil
        Task {
            await writer?.close()
            socket?.cancel()
        }
        continuation.yield(.connection(false))
    }

    private func opened(_ outbound: any WebSocketConnection, generation: Int) {
        guard generation == self.generation else { return }
        writer = outbound
        continuation.yield(.connection(true))
        apply(.opened)
        for handler in connectedHandlers { Task { await handler() } }
    }

    private func closed(generation: Int) {
        guard generation == self.generation else { return }
        writer = nil
        socket = nil
        continuation.yield(.connection(false))
        apply(.closed)
    }

    private func send(_ message: PhoenixMessage) {
        guard let writer, let data = try? SpotterClient.encoder.encode(message) else { return }
        let text = String(decoding: data, as: UTF8.self)
        // Each send waits for the one before, so frames leave in the order the machine asked for them.
        let previous = lastSend
        lastSend = Task {
            await previous?.value
            try? await writer.send(text)
        }
    }

    private func received(_ text: String, generation: Int) {
        guard generation == self.generation,
            let message = try? SpotterClient.decoder.decode(PhoenixMessage.self, from: Data(text.utf8))
        else { return }
        switch message.event {
        case PhoenixMessage.Event.reply:
            let ok = message.payload["status"] == .string("ok")
            if ok, let topic = RealtimeTopic(message.topic), let response = message.payload["response"] {
                if response["reset"] == .bool(true) { continuation.yield(.reset(topic: topic)) }
                for value in response["missed"]?.arrayValue ?? [] { deliver(value, topic: topic) }
            }
            apply(.reply(ref: message.ref ?? "", topic: message.topic, ok: ok))
        case PhoenixMessage.Event.close, PhoenixMessage.Event.error:
            // A close answering our own leave or a replaced join is expected; the machine ignores topics it
            // no longer holds, and rejoins any it still does.
            if message.event == PhoenixMessage.Event.error || machine.isJoined(message.topic) {
                apply(.channelLost(message.topic))
            }
        case _ where RealtimePush.events.contains(message.event):
            guard let frame = try? SpotterClient.decoder.decode(PushFrame.self, from: Data(text.utf8)) else {
                logger.debug("unreadable push", metadata: ["event": "\(message.event)"])
                return
            }
            if case .newPost(let post) = frame.push {
                deliver(post, topic: frame.topic)
            } else {
                continuation.yield(.push(frame.push, topic: frame.topic))
            }
        default:
            return  // an event of a later server version
        }
    }

    /// Emits a replayed post once (see `deliver(_:topic:)`).
    private func deliver(_ value: JSONValue, topic: RealtimeTopic) {
        guard let data = try? SpotterClient.encoder.encode(value),
            let post = try? SpotterClient.decoder.decode(Post.self, from: data)
        else { return }
        deliver(post, topic: topic)
    }

    /// Emits a post once, and remembers it as where the topic resumes.
    private func deliver(_ post: Post, topic: RealtimeTopic) {
        apply(.received(topic: topic.description, cursor: FeedCursor.at(post.id.rawValue)))
        guard seen.insert(post.id) else { return }
        continuation.yield(.newPost(post, topic: topic))
    }
}

/// The post ids seen lately, to deliver each once (a replay after a reconnect overlaps what came live).
struct SeenPosts {
    let capacity: Int
    private var ids: Set<PostID> = []
    private var order: [PostID] = []

    init(capacity: Int) { self.capacity = capacity }

    /// Adds an id; false if it was already there.
    mutating func insert(_ id: PostID) -> Bool {
        guard ids.insert(id).inserted else { return false }
        order.append(id)
        if order.count > capacity { ids.remove(order.removeFirst()) }
        return true
    }
}
