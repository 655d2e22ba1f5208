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

/// Each connection the server accepts: HTTP/1.1 that may upgrade to the Phoenix socket or to the Nostr relay.
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

    /// Which socket an upgrade opens, decided in `shouldUpgrade` and read when the pipeline is built.
    enum Admission {
        case phoenix(AuthenticatedSession)
        case relay
    }

    let responder: HTTPChannelHandler.Responder
    let socket: PhoenixSocket
    let relay: NostrRelaySocket
    let http: HTTP1Channel.Configuration
    let limits: ConnectionLimits
    let admission: ConnectionAdmission

    init(
        responder: @escaping HTTPChannelHandler.Responder, socket: PhoenixSocket, relay: NostrRelaySocket,
        http: HTTP1Channel.Configuration, limits: ConnectionLimits
    ) {
        self.responder = responder
        self.socket = socket
        self.relay = relay
        self.http = http
        self.limits = limits
        self.admission = ConnectionAdmission(
            perAddress: limits.maxConnectionsPerAddress,
            total: limits.maxConnections ?? DescriptorLimit.connectionBudget())
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard admission.admit(channel) else {
            return channel.eventLoop.makeSucceededFuture(
                Value(negotiated: channel.eventLoop.makeFailedFuture(TooManyConnections()), channel: channel))
        }
        return channel.eventLoop.makeCompletedFuture {
            // Who the upgrade let in, from `shouldUpgrade` to the pipeline it builds; both run on this loop.
            let admitted = NIOLoopBoundBox<Admission?>(nil, eventLoop: channel.eventLoop)
            let upgradeHead = UpgradeHeadRecorder()
            let connectionGuard = HTTPConnectionGuard(limits: limits)
            let probe = HeadStartProbe(connectionGuard)
            let socket = self.socket
            let relay = self.relay
            // The larger of the two sockets' limits; each socket's own handlers hold it to its own.
            let maxFrameSize = max(socket.configuration.maxFrameSize, relay.limits.maxMessageLength)
            /// The handlers of whichever socket the upgrade admitted.
            @Sendable func handlers(for channel: any Channel) throws -> [any ChannelHandler] {
                switch admitted.value {
                case .phoenix(let session): try socket.handlers(for: channel, session: session, logger: logger)
                case .relay: relay.handlers(for: channel)
                case nil: throw ChannelError.inappropriateOperationForState
                }
            }
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: maxFrameSize,
                // The socket's handler answers protocol errors itself, with a reason and a metric.
                enableAutomaticErrorHandling: false,
                shouldUpgrade: { channel, head in
                    if URI(head.uri).path == NostrRelaySocket.path {
                        admitted.value = .relay
                        return channel.eventLoop.makeSucceededFuture([:])
                    }
                    guard let credentials = PhoenixSocket.credentials(head) else {
                        return channel.eventLoop.makeSucceededFuture(nil)
                    }
                    let promise = channel.eventLoop.makePromise(of: AuthenticatedSession?.self)
                    promise.completeWithTask { await socket.admit(token: credentials.token) }
                    return promise.futureResult.map { session -> HTTPHeaders? in
                        guard let session else { return nil }
                        admitted.value = .phoenix(session)
                        return credentials.subprotocol ? ["Sec-WebSocket-Protocol": "phoenix"] : [:]
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        let added = try handlers(for: channel)
                        let pipeline = channel.pipeline.syncOperations
                        for handler in [upgradeHead, connectionGuard, probe] as [any RemovableChannelHandler] {
                            pipeline.removeHandler(handler, promise: nil)
                        }
                        try pipeline.addHandlers(added)
                        return Negotiated.socket
                    }
                })
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        pipeline.removeHandler(upgradeHead, promise: nil)
                        let laterUpgrade = KeepAliveUpgradeHandler(
                            handshake: { channel, head in
                                upgrader.buildUpgradeResponse(
                                    channel: channel, upgradeRequest: head, initialResponseHeaders: [:])
                            },
                            upgrade: { channel, after in
                                try Self.replaceHTTP(
                                    on: channel, after: after,
                                    with: [
                                        WebSocketFrameEncoder(),
                                        ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize)),
                                    ] + handlers(for: channel),
                                    removing: [probe, connectionGuard])
                            })
                        try pipeline.addHandler(laterUpgrade)
                        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try pipeline.addHandlers(self.http.additionalChannelHandlers())
                        try pipeline.addHandler(
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
            configuration.enableErrorHandling = false  // the connection guard answers what cannot be parsed
            configuration.enableResponseHeaderValidation = false  // HTTPTypes validated them already
            configuration.decoderConfiguration.maxHeaderFieldSize = limits.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = limits.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = limits.maxHeaderFieldCount
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: configuration)
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(probe, position: .before(decoder))
            try pipeline.addHandler(connectionGuard, position: .after(decoder))
            try pipeline.addHandler(upgradeHead, position: .after(connectionGuard))
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
            value.channel.close(promise: nil)
        } catch {
            // The guard has answered what it could (a malformed request, a timeout); nothing is left to do on
            // this connection but close it, or its descriptor stays taken.
            logger.debug("connection failed before its first request", metadata: ["error": "\(error)"])
            value.channel.close(promise: nil)
        }
    }

    /// After a handshake on a kept-alive connection: the socket's `handlers` go right after `after`, and every
    /// HTTP handler leaves the pipeline, the request decoder last so the bytes it holds go on to the frame
    /// decoder. The app's end of the channel stays, and hears nothing more until the channel closes.
    private static func replaceHTTP(
        on channel: any Channel, after: any ChannelHandler, with handlers: [any ChannelHandler],
        removing ours: [any RemovableChannelHandler]
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandlers(handlers, position: .after(after))
        for handler in ours { pipeline.removeHandler(handler, promise: nil) }
        pipeline.removeHandler(try pipeline.handler(type: HTTP1ToHTTPServerCodec.self), promise: nil)
        pipeline.removeHandler(try pipeline.handler(type: HTTPConnectionStateHandler.self), promise: nil)
        pipeline.removeHandler(try pipeline.handler(type: HTTPResponseEncoder.self), promise: nil)
        if let after = after as? any RemovableChannelHandler { pipeline.removeHandler(after, promise: nil) }
        pipeline.removeHandler(try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self), promise: nil)
    }
}

/// A connection refused for want of room (answered 503 in `ConnectionAdmission`).
struct TooManyConnections: Error {}

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
    /// HTTP/1.1 with the Phoenix socket on `PhoenixSocket.path` and the Nostr relay on `NostrRelaySocket.path`.
    static func http1PhoenixSocket(
        _ socket: PhoenixSocket, relay: NostrRelaySocket, limits: ConnectionLimits,
        http: HTTP1Channel.Configuration = .init()
    )
        -> HTTPServerBuilder
    {
        .init { responder in
            PhoenixServerChannel(responder: responder, socket: socket, relay: relay, http: http, limits: limits)
        }
    }
}
