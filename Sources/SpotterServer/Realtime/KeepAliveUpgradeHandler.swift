import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Upgrades to the Phoenix socket (or the Nostr relay) on a request that is not the connection's first.
///
/// NIO's upgrade handler looks at a connection's first request only, and then leaves the pipeline. Clients
/// may reuse a kept-alive connection for the handshake (Node's built-in WebSocket does, after a `fetch`),
/// so in HTTP mode this handler watches every later request: a WebSocket handshake for the socket's path is
/// held back from the app, checked by the same upgrader (key, version and token), answered 101, and the
/// pipeline is rebuilt for WebSocket frames in place of HTTP. A refused handshake goes on to the app, which
/// answers it as it answers a first request's (403 for a bad token, with `Connection: close`).
///
/// The connection's task stays parked on its next request until the socket closes (the first request's
/// upgrade does not keep it); that is the price of a handshake on a reused connection. The server's graceful
/// shutdown waits for that task, so the socket's handler closes the socket (1001) as soon as shutdown begins
/// (`ChannelShouldQuiesceEvent`), rather than leave it to the hub, which stops only after the server.
///
/// Only the channel's event loop touches it.
final class KeepAliveUpgradeHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Builds the 101's headers (and runs the token check) for a handshake.
    typealias Handshake = (any Channel, HTTPRequestHead) -> EventLoopFuture<HTTPHeaders>
    /// Replaces the HTTP handlers with the socket's, right after `self`; returns the handlers it added.
    typealias Upgrade = (any Channel, _ after: any ChannelHandler) throws -> Void

    private let handshake: Handshake
    private let upgrade: Upgrade
    private var held: HTTPRequestHead?

    init(handshake: @escaping Handshake, upgrade: @escaping Upgrade) {
        self.handshake = handshake
        self.upgrade = upgrade
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head(let head) = part, Self.isSocketHandshake(head) {
            held = head
            return
        }
        guard let head = held else {
            context.fireChannelRead(data)
            return
        }
        guard case .end = part else { return }  // a handshake has no body; any is dropped
        held = nil
        handshake(context.channel, head).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let headers):
                self.switchProtocols(head, headers: headers, context: context)
            case .failure:
                // The app answers it (and the connection guard closes the connection after).
                context.fireChannelRead(self.wrapInboundOut(.head(head)))
                context.fireChannelRead(self.wrapInboundOut(.end(nil)))
                context.fireChannelReadComplete()
            }
        }
    }

    private func switchProtocols(_ head: HTTPRequestHead, headers: HTTPHeaders, context: ChannelHandlerContext) {
        let response = HTTPResponseHead(version: head.version, status: .switchingProtocols, headers: headers)
        context.writeAndFlush(wrapOutboundOut(.head(response)), promise: nil)
        do {
            try upgrade(context.channel, self)
        } catch {
            context.close(promise: nil)
        }
    }

    /// Checked on every request, so the cheap test comes first: almost none has an `Upgrade` header.
    static func isSocketHandshake(_ head: HTTPRequestHead) -> Bool {
        guard head.headers.contains(name: "upgrade"),
            head.headers["upgrade"].contains(where: { $0.lowercased().contains("websocket") })
        else { return false }
        let path = head.uri.utf8.prefix { $0 != UInt8(ascii: "?") }
        return path.elementsEqual(PhoenixSocket.path.utf8) || path.elementsEqual(NostrRelaySocket.path.utf8)
    }
}
