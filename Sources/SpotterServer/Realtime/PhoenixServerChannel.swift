import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
import SpotterCore

/// Each connection the server accepts: HTTP/1.1 that may upgrade to the Phoenix socket.
///
/// Hummingbird's WebSocket channel serves an upgraded socket from the connection's task for as long as the
/// socket is open, and that task's async stack was most of what an idle socket cost. Here the upgrade hands the
/// socket to `PhoenixFrameHandler`, a channel handler on the socket's event loop, and the connection's task
/// ends: an idle socket costs its channel, its pipeline and its `RealtimeConnection`, and work that has to wait
/// (a join's access check) runs on a short task.
///
/// A refused upgrade (no token, or a bad or expired one) is answered by the router like any other request, so
/// the client gets the same problem+json 403 as a plain `GET /socket/websocket` and knows to refresh its token.
struct PhoenixServerChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
        /// The socket is open and served by its handler; nothing is left for the connection's task.
        case socket
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// A request with an `Upgrade` header that did not upgrade: a bad token, a malformed WebSocket handshake,
        /// `Upgrade: h2c`. NIO's upgrade handler passes no part of such a request on to the HTTP pipeline, which
        /// would wait for it forever; the router answers the head `UpgradeHeadRecorder` kept, and the connection
        /// closes after the answer.
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, HTTPRequest)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let socket: PhoenixSocket
    let http: HTTP1Channel.Configuration

    init(responder: @escaping HTTPChannelHandler.Responder, socket: PhoenixSocket, http: HTTP1Channel.Configuration) {
        self.responder = responder
        self.socket = socket
        self.http = http
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Who the upgrade let in, from `shouldUpgrade` to the pipeline it builds; both run on this loop.
            let admitted = NIOLoopBoundBox<AuthenticatedSession?>(nil, eventLoop: channel.eventLoop)
            let upgradeHead = UpgradeHeadRecorder()
            let socket = self.socket
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: socket.configuration.maxFrameSize,
                // The socket's handler answers protocol errors itself, with a reason and a metric.
                enableAutomaticErrorHandling: false,
                shouldUpgrade: { channel, head in
                    guard let credentials = PhoenixSocket.credentials(head) else {
                        return channel.eventLoop.makeSucceededFuture(nil)
                    }
                    let promise = channel.eventLoop.makePromise(of: AuthenticatedSession?.self)
                    promise.completeWithTask { await socket.admit(token: credentials.token) }
                    return promise.futureResult.map { session -> HTTPHeaders? in
                        guard let session else { return nil }
                        admitted.value = session
                        return credentials.subprotocol ? ["Sec-WebSocket-Protocol": "phoenix"] : [:]
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let session = admitted.value else { throw ChannelError.inappropriateOperationForState }
                        channel.pipeline.syncOperations.removeHandler(upgradeHead, promise: nil)
                        try socket.open(channel, session: session, logger: logger)
                        return Negotiated.socket
                    }
                })
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        channel.pipeline.syncOperations.removeHandler(upgradeHead, promise: nil)
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try channel.pipeline.syncOperations.addHandlers(self.http.additionalChannelHandlers())
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPConnectionStateHandler(
                                idleTimeout: self.http.idleTimeout.map { .init($0) }, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true))
                        return upgradeHead.head.map { Negotiated.refused(http, $0) } ?? .http(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration(upgradeConfiguration: upgrade)
            configuration.enablePipelining = false  // NIOAsyncChannel takes one request at a time
            configuration.enableErrorHandling = false  // Hummingbird answers errors
            configuration.enableResponseHeaderValidation = false  // HTTPTypes validated them already
            configuration.decoderConfiguration.maxHeaderFieldSize = http.httpDecoder.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = http.httpDecoder.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = http.httpDecoder.maxHeaderFieldCount
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: configuration)
            try channel.pipeline.syncOperations.addHandler(
                upgradeHead,
                position: .before(
                    try channel.pipeline.syncOperations.handler(type: NIOTypedHTTPServerUpgradeHandler<Negotiated>.self)
                ))
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .socket: return  // the socket lives on in its pipeline
            case .http(let http): await handleHTTP(asyncChannel: http, logger: logger)
            case .refused(let http, let head): try await answer(head, on: http)
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("connection closed before its first request")
        } catch {
            logger.debug("connection failed before its first request", metadata: ["error": "\(error)"])
        }
    }
}

extension PhoenixServerChannel {
    /// Answers a refused upgrade's kept head through the router (its body, if any, was never passed on), then
    /// closes the connection.
    private func answer(
        _ head: HTTPRequest, on http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    )
        async throws
    {
        try await http.executeThenClose { _, outbound in
            try await responder(
                Request(head: head, body: RequestBody(buffer: ByteBuffer())), ResponseWriter(outbound: outbound),
                http.channel)
        }
    }
}

/// Keeps the head of a request that asks to upgrade, for `Negotiated.refused`. It sits before NIO's upgrade
/// handler and leaves the pipeline once the request is settled; only its channel's event loop touches it.
private final class UpgradeHeadRecorder: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart

    private(set) var head: HTTPRequest?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data), request.headers.contains(name: "upgrade") {
            head = try? HTTPRequest(request, secure: false, splitCookie: false)
        }
        context.fireChannelRead(data)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the Phoenix socket on `PhoenixSocket.path`.
    static func http1PhoenixSocket(
        _ socket: PhoenixSocket, http: HTTP1Channel.Configuration = .init()
    )
        -> HTTPServerBuilder
    {
        .init { responder in PhoenixServerChannel(responder: responder, socket: socket, http: http) }
    }
}
