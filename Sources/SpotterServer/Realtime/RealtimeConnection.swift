import Foundation
import NIOCore
import NIOWebSocket
import SpotterCore
import SpotterModels
import Synchronization

/// One Phoenix socket's state shared between its reader and the hub: who it is, what it joined, and its frames
/// on their way out (`SocketWriter`).
final class RealtimeConnection: @unchecked Sendable {
    let id = UUID()
    let user: AccountRecord
    /// The login (token family) that opened the socket: revoking the login closes it.
    let login: UUID
    let connectedAt: Date
    /// The socket's frames on their way out (bounded; see `SocketWriter`).
    let writer: SocketWriter
    var channel: any Channel { writer.channel }
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
        self.writer = SocketWriter(channel: channel, bufferSize: bufferSize, closeGrace: closeGrace)
        self.ended = ended
        writer.onOverflow = { [weak self] in self?.end(.slowConsumer) }
    }

    /// Notes a frame from the client.
    func seen(now: ContinuousClock.Instant = .now) {
        lastSeen.store(SocketWriter.nanoseconds(now - opened), ordering: .relaxed)
    }

    /// Whether the client sent nothing for `timeout` before `now`.
    func isIdle(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        SocketWriter.nanoseconds(now - opened) - lastSeen.load(ordering: .relaxed)
            >= SocketWriter.nanoseconds(timeout)
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
    var isClosing: Bool { writer.isClosing }

    /// Notes that the socket is closing without sending a close frame (the client's close is being answered).
    func markClosing() { writer.markClosing() }

    /// See `SocketWriter.close`.
    @discardableResult
    func close(_ code: WebSocketErrorCode, reason: String) -> Bool { writer.close(code, reason: reason) }

    /// Sends a frame; a socket with too many frames waiting is marked for disconnection instead.
    func send(_ message: PhoenixMessage) {
        guard let text = message.encoded() else { return }
        send(text: text)
    }

    func send(text: String) { writer.send(text: text) }

    /// Sends one frame to many sockets: its bytes are made once and shared, and each event loop gets one task
    /// for all of its sockets instead of one per socket.
    static func broadcast(_ text: String, to connections: some Sequence<RealtimeConnection>) {
        var batch = OutboundBatch()
        let frame = WireFrame(text: text)
        for connection in connections { batch.add(frame, to: connection) }
        batch.send()
    }

    var isOverflowed: Bool { writer.isOverflowed }

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
    private var byLoop: [ObjectIdentifier: (loop: any EventLoop, writes: [(SocketWriter, WireFrame)])] = [:]

    mutating func add(_ frame: WireFrame, to writer: SocketWriter) {
        let loop = writer.channel.eventLoop
        byLoop[ObjectIdentifier(loop), default: (loop, [])].writes.append((writer, frame))
    }

    mutating func add(_ frame: WireFrame, to connection: RealtimeConnection) { add(frame, to: connection.writer) }

    mutating func add(text: String, to connection: RealtimeConnection) {
        add(WireFrame(text: text), to: connection.writer)
    }

    func send() {
        for (loop, writes) in byLoop.values {
            loop.execute { for (writer, frame) in writes { writer.writeOnLoop(frame) } }
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
