import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
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

    /// Who a token at the upgrade belongs to, as the account is now, and its login; nil refuses the upgrade.
    func admit(token: String) async -> AuthenticatedSession? {
        try? await accounts.authenticate(accessToken: token)
    }

    static func credentials(_ request: Request) -> (token: String, subprotocol: Bool)? {
        credentials(
            token: request.uri.queryParameters["token"].map(String.init),
            protocols: request.headers[values: .secWebSocketProtocol])
    }

    /// The credentials of an upgrade request, if it is one for this socket's path.
    static func credentials(_ head: HTTPRequestHead) -> (token: String, subprotocol: Bool)? {
        let uri = URI(head.uri)
        guard uri.path == path else { return nil }
        return credentials(
            token: uri.queryParameters["token"].map(String.init), protocols: head.headers["Sec-WebSocket-Protocol"])
    }

    private static func credentials(token: String?, protocols: [String]) -> (token: String, subprotocol: Bool)? {
        if let token, !token.isEmpty { return (token, false) }
        let offered = protocols.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard offered.contains("phoenix"), let encoded = offered.first(where: { $0.hasPrefix(subprotocolPrefix) }),
            let token = Base64URL.decodeText(String(encoded.dropFirst(subprotocolPrefix.count)))
        else { return nil }
        return (token, true)
    }

    // MARK: One connection

    /// The handlers that serve an upgraded socket from its pipeline, after the WebSocket frame codec; made on
    /// the channel's event loop, right after the upgrade.
    func handlers(
        for channel: any Channel, session: AuthenticatedSession, logger: Logger
    ) throws -> [any ChannelHandler] {
        let user = session.account
        if let size = configuration.sendBufferSize {
            try channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        let connection = RealtimeConnection(
            session: session, connectedAt: clock.now, channel: channel, bufferSize: configuration.outboundBuffer,
            closeGrace: configuration.slowConsumerGrace,
            ended: { reason in
                if reason == .slowConsumer {
                    logger.notice("slow consumer disconnected", metadata: ["user": "\(user.id)"])
                }
            })
        connection.seen()
        return [
            ClientFrameRules(),
            // Messages may come in fragments; they are joined up to the same limit as one frame.
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 256,
                maxAccumulatedFrameSize: configuration.maxFrameSize),
            PhoenixFrameHandler(connection: connection, socket: self),
        ]
    }

    /// The socket's first job: it joins the hub (its joins queue behind this).
    func opened(_ connection: RealtimeConnection) async {
        await hub.add(connection)
        RealtimeMetrics.connections.increment()
    }

    /// The socket's last job, once its channel closed.
    func closed(_ connection: RealtimeConnection) async {
        await hub.remove(connection)
        RealtimeMetrics.connections.decrement()
    }

    func handle(_ frame: PhoenixMessage, on connection: RealtimeConnection) async {
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
            let presence = topic == .communityFeed && frame.payload["presence"] != .bool(false)
            let relations = presence ? try await access.presenceRelations(of: connection.user.id) : nil
            await hub.subscribe(connection, to: topic, presence: relations)
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
