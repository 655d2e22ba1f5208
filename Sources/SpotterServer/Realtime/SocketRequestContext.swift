import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the socket's upgrade route. Like Hummingbird's basic WebSocket context, but it keeps
/// the connection's channel: a client that stopped reading can't take a close frame, and the only way to
/// free what it holds is to close the channel itself (see `PhoenixSocket.disconnect`).
struct SocketRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
