import Foundation
import NIOCore
import NIOHTTP1
import SpotterModels

/// Keeps one HTTP/1.1 connection from being held by a client that will not finish: the connection's clocks
/// and its answer to bytes that are not HTTP. What to do is `HTTPConnectionState`'s to say; this carries it out
/// on the channel: it passes events on or keeps them, schedules the one timer, writes refusals and closes.
///
/// It sits right after NIO's request decoder, from the connection's first byte until it upgrades to a
/// WebSocket, and watches each request go in and its response go out. Hummingbird answers unparsable requests
/// only once a connection has settled into HTTP, and a refused upgrade not at all; this answers them in every
/// state.
///
/// Only the channel's event loop touches it.
final class HTTPConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var state: HTTPConnectionState
    /// The time events happen at: NIO's clock, which the timer's deadlines are on too.
    private let now: @Sendable () -> NIODeadline
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    /// How long a connection is read and dropped after its last answer, so a client still sending gets to
    /// read the answer rather than a reset (nginx's lingering close).
    static let linger: TimeAmount = .seconds(2)

    init(limits: ConnectionLimits, now: @escaping @Sendable () -> NIODeadline = { .now() }) {
        self.state = HTTPConnectionState(limits: limits)
        self.now = now
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { _ = carry(.active, context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        _ = carry(.closed, context)
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        _ = carry(.active, context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        _ = carry(.closed, context)
        context.fireChannelInactive()
    }

    /// From `HeadStartProbe`: bytes arrived. Between requests they are the next head's first, and its clock
    /// starts.
    func bytesArrived() {
        _ = state.event(.bytesArrived, at: now())
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let event: HTTPConnectionState.Event =
            switch unwrapInboundIn(data) {
            case .head(let head): .requestHead(head)
            case .body: .requestBody
            case .end: .requestEnd
            }
        if carry(event, context) { context.fireChannelRead(data) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        _ = carry(.readComplete, context)
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        let event: HTTPConnectionState.Event =
            switch part {
            case .head(let head): .responseHead(head.status)
            case .body: .responseBody
            case .end: .responseEnd
            }
        switch state.event(event, at: now()) {
        case .markClosing:
            guard case .head(var head) = part else { return context.write(data, promise: promise) }
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .finishAndLinger:
            let written = context.writeAndFlush(data)
            written.assumeIsolated().whenComplete { _ in self.linger(context) }
            promise.map { written.cascade(to: $0) }
        case let action:
            if perform(action, context) { context.write(data, promise: promise) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let event = (error as? HTTPParserError).map(HTTPConnectionState.Event.parseError) ?? .otherError
        if carry(event, context) { context.fireErrorCaught(error) }
    }

    // MARK: Carrying out the state's actions

    /// Tells the state of `event` and does what it says; returns whether the event goes on down the pipeline.
    private func carry(_ event: HTTPConnectionState.Event, _ context: ChannelHandlerContext) -> Bool {
        perform(state.event(event, at: now()), context)
    }

    private func perform(_ action: HTTPConnectionState.Action, _ context: ChannelHandlerContext) -> Bool {
        switch action {
        case .proceed, .markClosing, .finishAndLinger:
            return true
        case .schedule(let deadline):
            timer?.cancel()
            timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
                self?.timerFired()
            }
            return true
        case .cancelTimer:
            cancelTimer()
            return true
        case .drop:
            return false
        case .close:
            context.close(promise: nil)
            return false
        case .refuse(let status, let detail):
            refuse(status, detail, context: context)
            return false
        }
    }

    private func timerFired() {
        timer = nil
        guard let context else { return }
        _ = carry(.timerFired, context)
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    /// Answers with a problem; the connection closes after it.
    private func refuse(_ status: HTTPResponseStatus, _ detail: String, context: ChannelHandlerContext) {
        cancelTimer()
        let problem = Problem(title: status.reasonPhrase, status: Int(status.code), detail: detail)
        let body = (try? JSONCoding.encoder.encode(problem)) ?? Data()
        let headers = HTTPHeaders([
            ("content-type", "application/problem+json"), ("content-length", "\(body.count)"),
            ("connection", "close"),
        ])
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            self.linger(context)
        }
    }

    /// Closes the output now and the connection once the client closes its end or `linger` has passed.
    private func linger(_ context: ChannelHandlerContext) {
        cancelTimer()
        context.close(mode: .output, promise: nil)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) { context.close(promise: nil) }
    }
}

/// Tells the guard when bytes arrive, so a head's clock starts at its first byte. It sits before the decoder,
/// which says nothing until a head is complete.
final class HeadStartProbe: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    // Strong: the guard holds nothing of the probe, and both leave the pipeline together.
    private let connectionGuard: HTTPConnectionGuard

    init(_ connectionGuard: HTTPConnectionGuard) {
        self.connectionGuard = connectionGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connectionGuard.bytesArrived()
        context.fireChannelRead(data)
    }
}
