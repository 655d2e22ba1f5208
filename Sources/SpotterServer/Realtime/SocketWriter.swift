import Foundation
import NIOCore
import NIOWebSocket
import Synchronization

/// A server socket's frames on their way out, for the Phoenix socket and the Nostr relay alike.
///
/// Frames are written straight to the socket's NIO channel, on its event loop, rather than through a queue and
/// a writer task per socket: that path (queue, task wake-up, NIO's async writer, then the event loop) cost many
/// times what nchan spends per frame, and a large fan-out fell behind. The bound on a slow client stays: a
/// frame counts as waiting until NIO has handed it to the kernel, and a socket with more than `bufferSize`
/// waiting is marked overflowed and `onOverflow` cuts it off.
final class SocketWriter: @unchecked Sendable {
    let channel: any Channel
    private let bufferSize: Int
    /// How long a socket the server closes gets to answer the close frame before the channel is closed.
    private let closeGrace: Duration
    private let waiting = Atomic<Int>(0)
    private let overflowed = Atomic<Bool>(false)
    private let closing = Atomic<Bool>(false)
    /// Set once, right after `init` and before the writer is shared.
    var onOverflow: @Sendable () -> Void = {}

    init(channel: any Channel, bufferSize: Int, closeGrace: Duration) {
        self.channel = channel
        self.bufferSize = bufferSize
        self.closeGrace = closeGrace
    }

    /// Whether the server or the client started closing the socket.
    var isClosing: Bool { closing.load(ordering: .relaxed) }

    /// Notes that the socket is closing without sending a close frame (the client's close is being answered).
    func markClosing() { closing.store(true, ordering: .relaxed) }

    var isOverflowed: Bool { overflowed.load(ordering: .relaxed) }

    /// What a socket's close frame says when the server stops (with 1001, going away).
    static let shutdownReason = "server shutting down"

    /// Tells the client why the server closes the socket, once, and closes the channel when the client
    /// answers or after the grace period: a client that stopped reading or went silent never will. A slow
    /// consumer's close frame waits behind the frames it is not reading, so it may never arrive.
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

    func send(text: String) {
        let frame = WireFrame(text: text)
        channel.eventLoop.execute { self.writeOnLoop(frame) }
    }

    /// Runs on the channel's event loop.
    func writeOnLoop(_ frame: WireFrame) {
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
        onOverflow()
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
