import Foundation
import SpotterCore
import SpotterModels

/// One socket's state shared between its reader, its writer and the hub: who it is, what it joined, and a
/// bounded queue of frames to write.
final class RealtimeConnection: @unchecked Sendable {
    let id = UUID()
    let user: AccountRecord
    let connectedAt: Date
    /// Frames for the writer task. Bounded: when it is full the client is too slow and is disconnected.
    let outbound: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    /// Ends when the outbound queue overflows (or when whoever waits on it is cancelled), and at no other
    /// time: the eviction task waits on it, because the writer may be stuck on a socket nobody reads.
    let overflowSignal: AsyncStream<Void>
    private let overflowContinuation: AsyncStream<Void>.Continuation
    private let lock = NSLock()
    private var joins: [RealtimeTopic: String?] = [:]
    private var overflowed = false

    init(user: AccountRecord, connectedAt: Date, bufferSize: Int) {
        self.user = user
        self.connectedAt = connectedAt
        (outbound, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(bufferSize))
        (overflowSignal, overflowContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Queues a frame; a full queue marks the connection for disconnection instead of blocking the sender.
    func send(_ message: PhoenixMessage) {
        guard let text = message.encoded() else { return }
        send(text: text)
    }

    /// Queues a frame encoded once for many sockets.
    func send(text: String) {
        if case .dropped = continuation.yield(text) {
            lock.withLock { overflowed = true }
            continuation.finish()
            overflowContinuation.finish()
        }
    }

    var isOverflowed: Bool { lock.withLock { overflowed } }

    func finish() { continuation.finish() }

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

extension PhoenixMessage {
    /// The frame as text, or nil if it can't be encoded (never, for the messages the server builds).
    func encoded() -> String? {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }
}
