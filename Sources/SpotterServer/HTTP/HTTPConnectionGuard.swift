import Foundation
import NIOCore
import NIOHTTP1
import SpotterModels

/// Keeps one HTTP/1.1 connection from being held by a client that will not finish: the connection's clocks
/// and its answer to bytes that are not HTTP.
///
/// It sits right after NIO's request decoder, from the connection's first byte until it upgrades to a
/// WebSocket, and watches each request go in and its response go out:
/// - waiting for a request: closed silently after `idleTimeout`; once a head's first byte has come (its
///   `HeadStartProbe` says so), the head must be complete within `headerTimeout`, or the answer is 408;
/// - reading a body: each part must come within `bodyTimeout` of the last, or the answer is 408;
/// - while the app works on a request, no clock runs: the app's own deadlines apply.
///
/// A request the decoder cannot parse is answered here, 400 (431 for a head over the limits) with
/// `Connection: close`, and the connection closes, as nginx does. Hummingbird answers such errors only once
/// a connection has settled into HTTP, and a refused upgrade not at all; this answers them in every state. A
/// body that breaks after its head reached the app (a chunk size that overflows) is the app's to answer (400,
/// from `ProblemMiddleware`), and the connection closes after that answer.
///
/// Only the channel's event loop touches it.
final class HTTPConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Reading {
        /// Between requests; `begun` once a byte of the next head has come.
        case awaitingHead(begun: Bool)
        case body
        case done
    }

    private let limits: ConnectionLimits
    private var reading = Reading.awaitingHead(begun: false)
    /// Whether the current request has been answered to its end (true between requests).
    private var answered = true
    private var responseStarted = false
    /// Set when this connection ends after the response in progress: the client said `Connection: close`, an
    /// upgrade was refused, or the request's body could not be parsed.
    private var closesAfterResponse = false
    /// After a last answer: the output is closed, and what the client still sends is read and dropped.
    private var lingering = false
    /// When the connection's current state runs out of time; nil while the app works on a request.
    private var deadline: NIODeadline?
    /// When the head being read began to arrive.
    private var headBegan = NIODeadline.distantPast
    private var timer: Scheduled<Void>?
    private var timerAt = NIODeadline.distantFuture
    private var context: ChannelHandlerContext?

    /// How long a connection is read and dropped after its last answer, so a client still sending gets to
    /// read the answer rather than a reset (nginx's lingering close).
    static let linger: TimeAmount = .seconds(2)

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    /// From `HeadStartProbe`: bytes arrived. Between requests they are the next head's first, and its clock
    /// starts.
    func bytesArrived() {
        guard case .awaitingHead(begun: false) = reading else { return }
        reading = .awaitingHead(begun: true)
        headBegan = .now()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !lingering else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.version.major == 1 else {
                refuse(.httpVersionNotSupported, "Spotter speaks HTTP/1.0 and HTTP/1.1.", context: context)
                return
            }
            reading = .body
            answered = false
            responseStarted = false
            closesAfterResponse = !head.isKeepAlive || head.headers.contains(name: "upgrade")
        case .body:
            break
        case .end:
            reading = .done
        }
        context.fireChannelRead(data)
    }

    /// The clocks are set once a read's bytes are all decoded: a request that came whole (most do) is in the
    /// app's hands by then, and sets none.
    func channelReadComplete(context: ChannelHandlerContext) {
        if !lingering { arm(context) }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            responseStarted = true
            if head.status == .switchingProtocols {
                closesAfterResponse = false  // the connection lives on as a WebSocket
            } else if case .body = reading {
                closesAfterResponse = true  // answered without its body (413, say): the rest is not read
            }
            if closesAfterResponse {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
        case .body:
            break
        case .end:
            answered = true
            if closesAfterResponse {
                let written = context.writeAndFlush(data)
                written.assumeIsolated().whenComplete { _ in self.closeAfterLinger(context) }
                promise.map { written.cascade(to: $0) }
                return
            }
            arm(context)
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !lingering else { return }  // the decoder's complaints about bytes after its error
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if case .awaitingHead = reading, answered {
            // Nobody has seen this request: it is answered here.
            if error == .headerOverflow {
                refuse(.requestHeaderFieldsTooLarge, "The request's headers are too large.", context: context)
            } else {
                refuse(.badRequest, "The request is not valid HTTP/1.1.", context: context)
            }
        } else if answered {
            context.close(promise: nil)
        } else {
            // The app holds this request and answers it when its body read fails.
            closesAfterResponse = true
            context.fireErrorCaught(error)
        }
    }

    // MARK: Clocks

    /// Sets the deadline the connection's state calls for. The timer behind it is scheduled anew only when the
    /// deadline comes before the pending one; a timer that finds the deadline moved on waits for it. So a
    /// kept-alive connection's requests move a number and schedule nothing (scheduling a task per request
    /// cost about 2,500 instructions of a `/healthz`'s 160,000).
    private func arm(_ context: ChannelHandlerContext) {
        if case .done = reading, answered {
            reading = .awaitingHead(begun: false)
        }
        let deadline: NIODeadline
        switch reading {
        case .awaitingHead(begun: false): deadline = .now() + limits.idleTimeout
        // From the head's first byte, however many reads it takes: a byte now and then buys no more time.
        case .awaitingHead(begun: true): deadline = headBegan + limits.headerTimeout
        case .body: deadline = .now() + limits.bodyTimeout  // from the last progress
        case .done:
            self.deadline = nil  // the app is working on it
            return
        }
        self.deadline = deadline
        if timer == nil || deadline < timerAt {
            timer?.cancel()
            schedule(at: deadline, context)
        }
    }

    private func schedule(at deadline: NIODeadline, _ context: ChannelHandlerContext) {
        timerAt = deadline
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            self?.timerFired()
        }
    }

    private func disarm() {
        deadline = nil
        timer?.cancel()
        timer = nil
    }

    private func timerFired() {
        timer = nil
        guard let deadline, let context else { return }
        guard NIODeadline.now() >= deadline else {
            schedule(at: deadline, context)  // moved on since: wait for the new deadline
            return
        }
        self.deadline = nil
        expired(context)
    }

    private func expired(_ context: ChannelHandlerContext) {
        switch reading {
        case .awaitingHead(begun: false):
            context.close(promise: nil)  // an idle keep-alive connection: nothing to say
        case .awaitingHead(begun: true), .body:
            if responseStarted {
                context.close(promise: nil)
            } else {
                refuse(.requestTimeout, "The request did not arrive in time.", context: context)
            }
        case .done:
            break
        }
    }

    /// Answers with a problem and closes the connection; nothing more is read from it.
    private func refuse(_ status: HTTPResponseStatus, _ detail: String, context: ChannelHandlerContext) {
        disarm()
        reading = .done
        answered = false
        closesAfterResponse = true
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
            self.closeAfterLinger(context)
        }
    }

    /// Closes the output now and the connection once the client closes its end or `linger` has passed.
    private func closeAfterLinger(_ context: ChannelHandlerContext) {
        disarm()
        lingering = true
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
