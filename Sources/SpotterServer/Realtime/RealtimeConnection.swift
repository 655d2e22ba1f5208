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
/// a writer task per socket: at 10,000 subscribers that path (queue, task wake-up, NIO's async writer, then
/// the event loop) cost about ten times nchan's per frame (issue 8). The bound on a slow client stays: a
/// frame counts as waiting until NIO has handed it to the kernel, and a socket with more than `bufferSize`
/// waiting is marked overflowed and cut off.
final class RealtimeConnection: @unchecked Sendable {
    let id = UUID()
    let user: AccountRecord
    let connectedAt: Date
    let channel: any Channel
    private let bufferSize: Int
    private let waiting = Atomic<Int>(0)
    private let overflowed = Atomic<Bool>(false)
    /// Ends when the socket overflows (or when whoever waits on it is cancelled), and at no other time.
    let overflowSignal: AsyncStream<Void>
    private let overflowContinuation: AsyncStream<Void>.Continuation
    private let lock = NSLock()
    private var joins: [RealtimeTopic: String?] = [:]

    init(user: AccountRecord, connectedAt: Date, channel: any Channel, bufferSize: Int) {
        self.user = user
        self.connectedAt = connectedAt
        self.channel = channel
        self.bufferSize = bufferSize
        (overflowSignal, overflowContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Sends a frame; a socket with too many frames waiting is marked for disconnection instead.
    func send(_ message: PhoenixMessage) {
        guard let text = message.encoded() else { return }
        send(text: text)
    }

    func send(text: String) {
        let frame = ByteBuffer(string: text)
        channel.eventLoop.execute { self.writeOnLoop(frame) }
    }

    /// Sends one frame to many sockets: its bytes are made once and shared, and each event loop gets one task
    /// for all of its sockets instead of one per socket.
    static func broadcast(_ text: String, to connections: some Sequence<RealtimeConnection>) {
        var batch = OutboundBatch()
        let frame = ByteBuffer(string: text)
        for connection in connections { batch.add(frame, to: connection) }
        batch.send()
    }

    var isOverflowed: Bool { overflowed.load(ordering: .relaxed) }

    /// Runs on the channel's event loop.
    fileprivate func writeOnLoop(_ data: ByteBuffer) {
        guard !isOverflowed else { return }  // being cut off: what is left is not owed
        guard waiting.add(1, ordering: .relaxed).newValue <= bufferSize else {
            markOverflowed()
            return
        }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in self.waiting.subtract(1, ordering: .relaxed) }
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: data), promise: promise)
    }

    private func markOverflowed() {
        guard !overflowed.exchange(true, ordering: .relaxed) else { return }
        overflowContinuation.finish()
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

/// Frames for many sockets, sent with one task per event loop.
struct OutboundBatch {
    private var byLoop: [ObjectIdentifier: (loop: any EventLoop, writes: [(RealtimeConnection, ByteBuffer)])] = [:]

    mutating func add(_ frame: ByteBuffer, to connection: RealtimeConnection) {
        let loop = connection.channel.eventLoop
        byLoop[ObjectIdentifier(loop), default: (loop, [])].writes.append((connection, frame))
    }

    mutating func add(text: String, to connection: RealtimeConnection) {
        add(ByteBuffer(string: text), to: connection)
    }

    func send() {
        for (loop, writes) in byLoop.values {
            loop.execute { for (connection, frame) in writes { connection.writeOnLoop(frame) } }
        }
    }
}

extension PhoenixMessage {
    /// The frame as text, or nil if it can't be encoded (never, for the messages the server builds).
    func encoded() -> String? {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }
}
