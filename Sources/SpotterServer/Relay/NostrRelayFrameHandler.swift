import Foundation
import NIOCore
import NIOWebSocket
import SpotterCore
import SpotterNostr

/// Reads one relay socket's frames on its event loop, as `PhoenixFrameHandler` does the Phoenix socket's: it
/// answers the WebSocket protocol itself, enforces the relay's message rate, and hands Nostr messages to
/// `NostrRelaySocket.handle` in order on a short task that ends when none are left (EVENTs sent together side
/// by side: `NostrRelayService.mayRunBesideOthers`).
final class NostrRelayFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let connection: NostrRelayConnection
    private let socket: NostrRelaySocket
    private let work = SerialWork()
    private var limiter: RateWindow

    init(connection: NostrRelayConnection, socket: NostrRelaySocket) {
        self.connection = connection
        self.socket = socket
        self.limiter = RateWindow(limit: socket.limits.maxMessagesPerSecond)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        socket.opened(connection)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose:
            answerClose(frame, context: context)
        case _ where connection.writer.isClosing:
            return
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            return
        case .text:
            read(frame.unmaskedData)
        default:
            connection.send(.notice("invalid: messages are JSON text frames"))
        }
    }

    private func read(_ text: ByteBuffer) {
        guard text.readableBytes <= socket.limits.maxMessageLength else {
            connection.send(.notice("invalid: messages are at most \(socket.limits.maxMessageLength) bytes"))
            return
        }
        let message: NostrClientMessage
        do {
            message = try NostrJSON.decoder.decode(NostrClientMessage.self, from: Data(text.readableBytesView))
        } catch {
            connection.send(.notice("invalid: \(Self.describe(error))"))
            return
        }
        guard limiter.allow(now: .now) else {
            switch message {
            case .event(let event): connection.send(.ok(event.id, accepted: false, message: "rate-limited: slow down"))
            case .request(let subscription, _), .count(let subscription, _):
                connection.send(.closed(subscription: subscription, message: "rate-limited: slow down"))
            case .close, .auth: connection.send(.notice("rate-limited: slow down"))
            }
            return
        }
        let socket = socket
        let connection = connection
        work.enqueue(concurrent: NostrRelayService.mayRunBesideOthers(message)) {
            await socket.handle(message, on: connection)
        }
    }

    /// What was wrong with a message, in words a client developer can act on.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined()
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _):
            return "missing \(key.stringValue)"
        default:
            return "not a Nostr message"
        }
    }

    private func answerClose(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        guard !connection.writer.isClosing else {
            context.close(promise: nil)
            return
        }
        var code = frame.unmaskedData
        let echo = WebSocketFrame(fin: true, opcode: .connectionClose, data: code.readSlice(length: 2) ?? ByteBuffer())
        connection.writer.markClosing()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            connection.writer.close(.messageTooLarge, reason: "message too large")
        case is UnmaskedClientFrame:
            connection.writer.close(.protocolError, reason: "frames from a client are masked")
        case is ReservedBitSet:
            connection.writer.close(.protocolError, reason: "no extension was negotiated: reserved bits must be 0")
        case is NIOWebSocketError, is NIOWebSocketFrameAggregator.Error:
            connection.writer.close(.protocolError, reason: "\(error)")
        default:
            context.close(promise: nil)
        }
    }

    /// Graceful shutdown has begun: closed now with 1001, as `PhoenixFrameHandler` closes its socket.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            connection.writer.close(.goingAway, reason: SocketWriter.shutdownReason)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        socket.closed(connection)
        context.fireChannelInactive()
    }
}
