import Foundation
import NIOCore
import NIOWebSocket
import SpotterCore
import SpotterModels
import Synchronization

/// One socket's state shared between its reader and the hub: who it is, what it joined, and its frames on
/// their way out.
///
/// Frames are written straight to the socket's NIO channel, on its event loop, rather than through a queue and
/// a writer task per socket: that path (queue, task wake-up, NIO's async writer, then the event loop) cost many
/// times what nchan spends per frame, and a large fan-out fell behind. The bound on a slow client stays: a
/// frame counts as waiting until NIO has handed it to the kernel, and a socket with more than `bufferSize`
/// waiting is marked overflowed and cut off.
final class RealtimeConnection: @unchecked Sendable {
    let id = UUID()
    let user: AccountRecord
    /// The login (token family) that opened the socket: revoking the login closes it.
    let login: UUID
    let connectedAt: Date
    let channel: any Channel
    private let bufferSize: Int
    /// How long a socket the server closes gets to answer the close frame before the channel is closed.
    private let closeGrace: Duration
    private let waiting = Atomic<Int>(0)
    private let overflowed = Atomic<Bool>(false)
    private let closing = Atomic<Bool>(false)
    /// When the client last sent a frame, in nanoseconds of `ContinuousClock` since the socket opened.
    private let lastSeen = Atomic<Int64>(0)
    private let opened = ContinuousClock.now
    /// Hears why the server ended the socket (tests watch it; the socket counts it in `RealtimeMetrics`).
    private let ended: @Sendable (Disconnection) -> Void
    private let lock = NSLock()
    private var joins: [RealtimeTopic: String?] = [:]

    /// Why the server ends a socket by itself.
    enum Disconnection: Sendable {
        /// More frames waiting than its buffer: it stopped reading, or reads too slowly.
        case slowConsumer
        /// Nothing from the client for the idle timeout: no heartbeat.
        case heartbeatTimeout
        /// The login that opened it was revoked (a sign-out, a password change, a suspension).
        case loginRevoked
    }

    /// No task waits per socket for an overflow or for silence: the sender and the hub's idle sweep notice
    /// them and call `end`, so an idle socket holds no task's stack.
    init(
        session: AuthenticatedSession, connectedAt: Date, channel: any Channel, bufferSize: Int,
        closeGrace: Duration = .seconds(2), ended: @escaping @Sendable (Disconnection) -> Void = { _ in }
    ) {
        self.user = session.account
        self.login = session.token.family
        self.connectedAt = connectedAt
        self.channel = channel
        self.bufferSize = bufferSize
        self.closeGrace = closeGrace
        self.ended = ended
    }

    /// Notes a frame from the client.
    func seen(now: ContinuousClock.Instant = .now) {
        lastSeen.store(Self.nanoseconds(now - opened), ordering: .relaxed)
    }

    /// Whether the client sent nothing for `timeout` before `now`.
    func isIdle(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        Self.nanoseconds(now - opened) - lastSeen.load(ordering: .relaxed) >= Self.nanoseconds(timeout)
    }

    /// Ends the socket for `reason`, once, whoever asks first.
    func end(_ reason: Disconnection) {
        let closed =
            switch reason {
            case .slowConsumer: close(.policyViolation, reason: "slow consumer: too many frames waiting")
            case .heartbeatTimeout: close(.goingAway, reason: "heartbeat timeout")
            case .loginRevoked: close(.policyViolation, reason: "login revoked")
            }
        guard closed else { return }
        switch reason {
        case .slowConsumer: RealtimeMetrics.disconnected(.slowConsumer)
        case .heartbeatTimeout: RealtimeMetrics.disconnected(.heartbeatTimeout)
        case .loginRevoked: RealtimeMetrics.disconnected(.loginRevoked)
        }
        ended(reason)
    }

    /// Whether the server or the client started closing the socket.
    var isClosing: Bool { closing.load(ordering: .relaxed) }

    /// Notes that the socket is closing without sending a close frame (the client's close is being answered).
    func markClosing() { closing.store(true, ordering: .relaxed) }

    /// Tells the client why the server closes the socket, once, and closes the channel when the client
    /// answers (see `PhoenixFrameHandler`) or after the grace period: a client that stopped reading or went
    /// silent never will. A slow consumer's close frame waits behind the frames it is not reading, so it may
    /// never arrive.
    @discardableResult
    func close(_ code: WebSocketErrorCode, reason: String) -> Bool {
        guard !closing.exchange(true, ordering: .relaxed) else { return false }
        var data = ByteBuffer()
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = channel
        let grace = TimeAmount.nanoseconds(Self.nanoseconds(closeGrace))
        channel.eventLoop.execute {
            channel.writeAndFlush(frame, promise: nil)
            channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
        }
        return true
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Sends a frame; a socket with too many frames waiting is marked for disconnection instead.
    func send(_ message: PhoenixMessage) {
        guard let text = message.encoded() else { return }
        send(text: text)
    }

    func send(text: String) {
        let frame = WireFrame(text: text)
        channel.eventLoop.execute { self.writeOnLoop(frame) }
    }

    /// Sends one frame to many sockets: its bytes are made once and shared, and each event loop gets one task
    /// for all of its sockets instead of one per socket.
    static func broadcast(_ text: String, to connections: some Sequence<RealtimeConnection>) {
        var batch = OutboundBatch()
        let frame = WireFrame(text: text)
        for connection in connections { batch.add(frame, to: connection) }
        batch.send()
    }

    var isOverflowed: Bool { overflowed.load(ordering: .relaxed) }

    /// Runs on the channel's event loop.
    fileprivate func writeOnLoop(_ frame: WireFrame) {
        guard !isOverflowed else { return }  // being cut off: what is left is not owed
        guard waiting.add(1, ordering: .relaxed).newValue <= bufferSize else {
            markOverflowed()
            return
        }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in self.waiting.subtract(1, ordering: .relaxed) }
        // Below the frame encoder, the frame's bytes go out as they are: made once for every socket, they skip
        // the pipeline's handlers and the encoder's per-socket header, work repeated for every socket.
        // A pipeline without the encoder (never, today) gets the frame through the channel instead.
        if let encoder = encoderContext() {
            encoder.writeAndFlush(NIOAny(frame.bytes), promise: promise)
        } else {
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: frame.payload), promise: promise)
        }
    }

    /// The frame encoder's place in the pipeline, looked up once. Only touched on the event loop.
    private var encoder: ChannelHandlerContext??

    private func encoderContext() -> ChannelHandlerContext? {
        if let encoder { return encoder }
        let found = try? channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self)
        encoder = .some(found)
        return found
    }

    private func markOverflowed() {
        guard !overflowed.exchange(true, ordering: .relaxed) else { return }
        end(.slowConsumer)
    }

    // MARK: Joined topics

    /// Records a join and returns the join ref it replaces, if the topic was joined already.
    func join(_ topic: RealtimeTopic, joinRef: String?) -> String?? {
        lock.withLock {
            let previous = joins[topic]
            joins[topic] = joinRef
            return previous
        }
    }

    func leave(_ topic: RealtimeTopic) -> Bool { lock.withLock { joins.removeValue(forKey: topic) != nil } }

    func joinRef(for topic: RealtimeTopic) -> String?? { lock.withLock { joins[topic] } }

    var topics: [RealtimeTopic] { lock.withLock { Array(joins.keys) } }
}

/// A text frame as the server sends it (RFC 6455 §5.2: final, unmasked), encoded once for any number of
/// sockets.
struct WireFrame: Sendable {
    let payload: ByteBuffer
    /// Header and payload.
    let bytes: ByteBuffer

    init(text: String) {
        payload = ByteBuffer(string: text)
        var bytes = ByteBuffer()
        bytes.reserveCapacity(payload.readableBytes + 10)
        bytes.writeInteger(UInt8(0x81))  // FIN, opcode 1 (text)
        switch payload.readableBytes {
        case ..<126:
            bytes.writeInteger(UInt8(payload.readableBytes))
        case ...0xFFFF:
            bytes.writeInteger(UInt8(126))
            bytes.writeInteger(UInt16(payload.readableBytes))
        default:
            bytes.writeInteger(UInt8(127))
            bytes.writeInteger(UInt64(payload.readableBytes))
        }
        bytes.writeImmutableBuffer(payload)
        self.bytes = bytes
    }
}

/// Frames for many sockets, sent with one task per event loop.
struct OutboundBatch {
    private var byLoop: [ObjectIdentifier: (loop: any EventLoop, writes: [(RealtimeConnection, WireFrame)])] = [:]

    mutating func add(_ frame: WireFrame, to connection: RealtimeConnection) {
        let loop = connection.channel.eventLoop
        byLoop[ObjectIdentifier(loop), default: (loop, [])].writes.append((connection, frame))
    }

    mutating func add(text: String, to connection: RealtimeConnection) {
        add(WireFrame(text: text), to: connection)
    }

    func send() {
        for (loop, writes) in byLoop.values {
            loop.execute { for (connection, frame) in writes { connection.writeOnLoop(frame) } }
        }
    }
}

extension PushFrame {
    /// The frame as text, encoded straight from its typed payload (never through `JSONValue`, which would
    /// encode a notification three times), or nil if it can't be encoded (never, for what the hub sends).
    func encoded() -> String? {
        (try? JSONCoding.encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension PhoenixMessage {
    /// The frame as text, or nil if it can't be encoded (never, for the messages the server builds).
    func encoded() -> String? {
        (try? JSONCoding.encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }
}
