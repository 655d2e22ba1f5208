import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import SpotterCore
import SpotterModels

/// `/socket/websocket?vsn=2.0.0`: the Phoenix Channels v2 endpoint.
///
/// The access token comes as `?token=` or in the Phoenix 1.8 subprotocol form
/// (`Sec-WebSocket-Protocol: phoenix, base64url.bearer.phx.<base64url token>`); it is checked at the upgrade,
/// and a bad or expired one is refused there (the HTTP route answers 403) so clients refresh and retry.
struct PhoenixSocket {
    static let path = "/socket/websocket"
    static let subprotocolPrefix = "base64url.bearer.phx."

    let accounts: AccountService
    let hub: RealtimeHub
    let access: TopicAccess
    let configuration: RealtimeConfiguration
    let clock: any WallClock

    /// The router the WebSocket upgrade consults.
    var router: Router<SocketRequestContext> {
        let router = Router(context: SocketRequestContext.self)
        router.ws(
            RouterPath(Self.path),
            shouldUpgrade: { request, _ in
                guard let credentials = Self.credentials(request),
                    (try? await accounts.authenticate(accessToken: credentials.token)) != nil
                else { return .dontUpgrade }
                return .upgrade(credentials.subprotocol ? [.secWebSocketProtocol: "phoenix"] : [:])
            },
            onUpgrade: { inbound, outbound, context in
                // The upgrade already checked the token; read the account as it is now.
                guard let token = Self.credentials(context.request)?.token,
                    let session = try? await accounts.authenticate(accessToken: token)
                else {
                    try await outbound.close(.policyViolation, reason: "invalid token")
                    return
                }
                try await serve(
                    user: session.account, inbound: inbound, outbound: outbound,
                    channel: context.requestContext.channel, logger: context.logger)
            })
        return router
    }

    static func credentials(_ request: Request) -> (token: String, subprotocol: Bool)? {
        if let token = request.uri.queryParameters["token"], !token.isEmpty { return (String(token), false) }
        let offered = request.headers[values: .secWebSocketProtocol]
            .flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard offered.contains("phoenix"), let encoded = offered.first(where: { $0.hasPrefix(subprotocolPrefix) }),
            let token = Base64URL.decodeText(String(encoded.dropFirst(subprotocolPrefix.count)))
        else { return nil }
        return (token, true)
    }

    // MARK: One connection

    /// One socket: the task Hummingbird gives it reads the client's frames until the client goes or the
    /// socket is ended. Frames out are written by whoever sends them (see `RealtimeConnection`), and the hub's
    /// idle sweep ends sockets that go quiet, so nothing else waits per socket.
    private func serve(
        user: AccountRecord, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        channel: any Channel, logger: Logger
    ) async throws {
        if let size = configuration.sendBufferSize {
            try? await channel.setOption(.socketOption(.so_sndbuf), value: SocketOptionValue(size)).get()
        }
        let grace = configuration.slowConsumerGrace
        let connection = RealtimeConnection(
            user: user, connectedAt: clock.now, channel: channel, bufferSize: configuration.outboundBuffer,
            disconnect: { reason in
                await Self.disconnect(reason, outbound: outbound, channel: channel, grace: grace, logger: logger)
            })
        connection.seen()
        await hub.add(connection)
        RealtimeMetrics.connections.increment()
        await read(inbound, outbound: outbound, connection: connection)
        await hub.remove(connection)
        RealtimeMetrics.connections.decrement()
        logger.debug("socket closed", metadata: ["user": "\(user.id)"])
    }

    private func read(
        _ inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, connection: RealtimeConnection
    ) async {
        var limiter = RateWindow(limit: configuration.maxMessagesPerSecond)
        do {
            for try await message in inbound.messages(maxSize: configuration.maxFrameSize) {
                connection.seen()
                guard limiter.allow(now: .now) else {
                    RealtimeMetrics.disconnected(.rateLimited)
                    try? await outbound.close(.policyViolation, reason: "too many messages")
                    return
                }
                guard case .text(let text) = message,
                    let frame = try? JSONDecoder().decode(PhoenixMessage.self, from: Data(text.utf8))
                else {
                    RealtimeMetrics.disconnected(.malformedFrame)
                    try? await outbound.close(
                        .unacceptableData, reason: "frames are JSON arrays [join_ref, ref, topic, event, payload]")
                    return
                }
                await handle(frame, on: connection)
            }
        } catch {  // the only error reading throws on an open connection: a frame over `maxSize`
            RealtimeMetrics.disconnected(.frameTooLarge)
            try? await outbound.close(.messageTooLarge, reason: "frame too large")
        }
    }

    /// Ends a socket the server gives up on. The client is told why if its socket still takes a frame; after
    /// the grace period the channel is closed without waiting for the close handshake, since a client that
    /// stopped reading or went silent will not answer it (and that also ends the read loop).
    private static func disconnect(
        _ reason: RealtimeConnection.Disconnection, outbound: WebSocketOutboundWriter, channel: any Channel,
        grace: Duration, logger: Logger
    ) async {
        switch reason {
        case .slowConsumer:
            RealtimeMetrics.disconnected(.slowConsumer)
            logger.notice("slow consumer disconnected")
            await withTaskGroup(of: Void.self) { group in
                // The close frame waits behind the frames the client is not reading, so it may never go out.
                group.addTask {
                    try? await outbound.close(.policyViolation, reason: "slow consumer: too many frames waiting")
                }
                group.addTask { try? await Task.sleep(for: grace) }
                await group.next()
                group.cancelAll()
            }
        case .heartbeatTimeout:
            RealtimeMetrics.disconnected(.heartbeatTimeout)
            try? await outbound.close(.goingAway, reason: "heartbeat timeout")
            try? await Task.sleep(for: grace)
        }
        channel.close(promise: nil)
    }

    private func handle(_ frame: PhoenixMessage, on connection: RealtimeConnection) async {
        switch (frame.topic, frame.event) {
        case ("phoenix", PhoenixMessage.Event.heartbeat):
            connection.send(frame.reply(ok: true))
        case (_, PhoenixMessage.Event.join):
            await join(frame, on: connection)
        case (_, PhoenixMessage.Event.leave):
            if let topic = RealtimeTopic(frame.topic), connection.leave(topic) {
                await hub.unsubscribe(connection, from: topic)
            }
            connection.send(frame.reply(ok: true))
            connection.send(
                PhoenixMessage(
                    joinRef: frame.joinRef, ref: frame.ref, topic: frame.topic, event: PhoenixMessage.Event.close,
                    payload: .object([:])))
        default:
            let joined = RealtimeTopic(frame.topic).map { connection.joinRef(for: $0) != nil } ?? false
            connection.send(frame.reply(ok: false, response: Self.reason(joined ? "unknown event" : "unmatched topic")))
        }
    }

    private func join(_ frame: PhoenixMessage, on connection: RealtimeConnection) async {
        guard let topic = RealtimeTopic(frame.topic) else {
            connection.send(frame.reply(ok: false, response: Self.reason("unmatched topic")))
            return
        }
        let alreadyJoined = connection.joinRef(for: topic) != nil
        guard alreadyJoined || connection.topics.count < configuration.maxTopicsPerSocket else {
            connection.send(frame.reply(ok: false, response: Self.reason("too many topics")))
            return
        }
        do {
            guard try await access.canJoin(topic, user: connection.user) else {
                connection.send(frame.reply(ok: false, response: Self.reason("unauthorized")))
                return
            }
            var response: [String: JSONValue] = [:]
            if let since = frame.payload["since"]?.stringValue {
                if let missed = try await access.missed(
                    on: topic, since: since, user: connection.user, limit: configuration.replayLimit)
                {
                    response["missed"] = try JSONValue(encoding: missed)
                } else {
                    response["reset"] = .bool(true)
                }
            }
            if case .some(let previous) = connection.join(topic, joinRef: frame.joinRef) {
                // Joining again replaces the old join, which is closed.
                connection.send(
                    PhoenixMessage(
                        joinRef: previous, ref: previous, topic: frame.topic, event: PhoenixMessage.Event.close,
                        payload: .object([:])))
            }
            connection.send(frame.reply(ok: true, response: .object(response)))
            // A client that shows no presence can spare itself the frames: `{"presence": false}`.
            await hub.subscribe(connection, to: topic, presence: frame.payload["presence"] != .bool(false))
        } catch let error as SpotterError {
            if case .malformed = error {
                connection.send(frame.reply(ok: false, response: Self.reason("bad since cursor")))
            } else {
                connection.send(frame.reply(ok: false, response: Self.reason("unavailable")))
            }
        } catch {
            connection.send(frame.reply(ok: false, response: Self.reason("unavailable")))
        }
    }

    private static func reason(_ text: String) -> JSONValue { .object(["reason": .string(text)]) }
}

/// Counts messages in the current second.
struct RateWindow {
    let limit: Int
    private var windowStart = ContinuousClock.now
    private var count = 0

    init(limit: Int) { self.limit = limit }

    mutating func allow(now: ContinuousClock.Instant) -> Bool {
        if now - windowStart >= .seconds(1) {
            windowStart = now
            count = 0
        }
        count += 1
        return count <= limit
    }
}
