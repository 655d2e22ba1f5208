import Foundation
import NIOCore
import NIOWebSocket
import SpotterModels
import Synchronization

/// Reads one Phoenix socket's frames on its event loop (see `PhoenixServerChannel` for why there is no task).
///
/// It answers the WebSocket protocol itself (pings, the close handshake, frames too large) and enforces the
/// socket's limits. Phoenix messages go to `PhoenixSocket.handle` in the order they came, on a short task that
/// ends when none are left; a heartbeat that finds nothing waiting is answered right here.
final class PhoenixFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let connection: RealtimeConnection
    private let socket: PhoenixSocket
    private let work: SerialWork
    private var limiter: RateWindow

    init(connection: RealtimeConnection, socket: PhoenixSocket) {
        self.connection = connection
        self.socket = socket
        self.limiter = RateWindow(limit: socket.configuration.maxMessagesPerSecond)
        self.work = SerialWork()
        work.enqueue { await socket.opened(connection) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        connection.seen()
        switch frame.opcode {
        case .connectionClose:
            answerClose(frame, context: context)
        case _ where connection.isClosing:
            return  // closing: what the client still sends is not read
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            return
        case .text:
            read(frame.unmaskedData)
        default:  // binary: not a Phoenix frame
            refuseMalformed()
        }
    }

    private func read(_ text: ByteBuffer) {
        // The frame decoder admits the relay's larger messages too; this socket keeps to its own limit.
        guard text.readableBytes <= socket.configuration.maxFrameSize else {
            RealtimeMetrics.disconnected(.frameTooLarge)
            connection.close(.messageTooLarge, reason: "frame too large")
            return
        }
        guard limiter.allow(now: .now) else {
            RealtimeMetrics.disconnected(.rateLimited)
            connection.close(.policyViolation, reason: "too many messages")
            return
        }
        guard let message = try? JSONDecoder().decode(PhoenixMessage.self, from: Data(text.readableBytesView)) else {
            refuseMalformed()
            return
        }
        if message.isHeartbeat, work.isIdle {
            connection.send(message.reply(ok: true))
            return
        }
        let socket = socket
        let connection = connection
        work.enqueue { await socket.handle(message, on: connection) }
    }

    private func refuseMalformed() {
        RealtimeMetrics.disconnected(.malformedFrame)
        connection.close(.unacceptableData, reason: "frames are JSON arrays [join_ref, ref, topic, event, payload]")
    }

    /// The client's close: answered with its code (RFC 6455 §5.5.1), then the connection ends. If the server
    /// closed first, this is the answer it waited for.
    private func answerClose(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        guard !connection.isClosing else {
            context.close(promise: nil)
            return
        }
        var code = frame.unmaskedData
        let echo = WebSocketFrame(fin: true, opcode: .connectionClose, data: code.readSlice(length: 2) ?? ByteBuffer())
        connection.markClosing()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            RealtimeMetrics.disconnected(.frameTooLarge)
            connection.close(.messageTooLarge, reason: "frame too large")
        case is UnmaskedClientFrame:
            connection.close(.protocolError, reason: "frames from a client are masked")
        case is ReservedBitSet:
            connection.close(.protocolError, reason: "no extension was negotiated: reserved bits must be 0")
        case is NIOWebSocketError, is NIOWebSocketFrameAggregator.Error:
            connection.close(.protocolError, reason: "\(error)")
        default:  // the connection itself failed (reset by the peer, say): nobody is left to tell
            context.close(promise: nil)
        }
    }

    /// The server's graceful shutdown has begun: NIO's quiescing helper tells every connection the server
    /// accepted. The socket is closed now with 1001, however it was opened: one upgraded on a kept-alive
    /// connection keeps that connection's task parked (`KeepAliveUpgradeHandler`), and the server waits for
    /// that task before its services (the hub among them) stop.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            connection.close(.goingAway, reason: SocketWriter.shutdownReason)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let socket = socket
        let connection = connection
        work.enqueue { await socket.closed(connection) }
        context.fireChannelInactive()
    }
}

/// RFC 6455 §5.1 and §5.2: a server fails the connection on a frame its client did not mask, and on a frame
/// with a reserved bit set when no extension gave the bit a meaning (Spotter negotiates none). Checked before
/// the fragments of a message are joined, since the joined frame carries neither.
final class ClientFrameRules: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.maskKey != nil else {
            context.fireErrorCaught(UnmaskedClientFrame())
            return
        }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            context.fireErrorCaught(ReservedBitSet())
            return
        }
        context.fireChannelRead(data)
    }
}

struct UnmaskedClientFrame: Error {}
struct ReservedBitSet: Error {}

extension PhoenixMessage {
    fileprivate var isHeartbeat: Bool { topic == "phoenix" && event == Event.heartbeat }
}

/// Runs jobs one after another on a task that exists only while there are jobs, so a quiet socket holds none.
///
/// Jobs enqueued as `concurrent` that stand next to each other in the queue run together instead, up to
/// `concurrentRun` at once, and the next job waits for all of them: the relay's EVENTs, each its own unit of work,
/// so that what a client sent together joins one batch of the writer and one sync of the log, rather than
/// waiting for a sync each.
final class SerialWork: Sendable {
    private struct Job {
        let run: @Sendable () async -> Void
        let concurrent: Bool
    }

    static let concurrentRun = 64
    private let state = Mutex<(jobs: [Job], running: Bool)>(([], false))

    var isIdle: Bool { state.withLock { !$0.running } }

    func enqueue(concurrent: Bool = false, _ job: @escaping @Sendable () async -> Void) {
        let start = state.withLock { state in
            state.jobs.append(Job(run: job, concurrent: concurrent))
            defer { state.running = true }
            return !state.running
        }
        if start { Task { await drain() } }
    }

    private func drain() async {
        while let run = next() {
            guard run.count > 1 else {
                await run[0]()
                continue
            }
            await withTaskGroup(of: Void.self) { group in
                for job in run { group.addTask { await job() } }
            }
        }
    }

    /// The next job, or the run of concurrent jobs that starts the queue.
    private func next() -> [@Sendable () async -> Void]? {
        state.withLock { state in
            guard !state.jobs.isEmpty else {
                state.running = false
                return nil
            }
            let first = state.jobs.removeFirst()
            var run = [first.run]
            guard first.concurrent else { return run }
            while run.count < Self.concurrentRun, let following = state.jobs.first, following.concurrent {
                run.append(state.jobs.removeFirst().run)
            }
            return run
        }
    }
}
