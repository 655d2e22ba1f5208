import Foundation
import HummingbirdWSClient
import Logging

/// One open WebSocket, as `RealtimeClient` uses it.
public protocol WebSocketConnection: Sendable {
    func send(_ text: String) async throws
    func close() async
}

/// Opens WebSockets for `RealtimeClient`. The default, `HummingbirdWebSocketTransport`, runs on Linux and
/// Apple platforms alike (URLSession's `URLSessionWebSocketTask` doesn't exist on Linux, whose libcurl lacks
/// WebSocket support); an Apple-only app may bring its own over URLSession.
public protocol WebSocketTransport: Sendable {
    /// Connects, calls `opened` with the connection, then `received` for each text frame, and returns when the
    /// connection ends. Throws when it could not connect.
    func run(
        url: URL, opened: @escaping @Sendable (any WebSocketConnection) async -> Void,
        received: @escaping @Sendable (String) async -> Void
    ) async throws
}

/// WebSockets through HummingbirdWSClient (SwiftNIO).
public struct HummingbirdWebSocketTransport: WebSocketTransport {
    let logger: Logger
    let maxMessageSize: Int

    public init(logger: Logger = Logger(label: "spotterkit.websocket"), maxMessageSize: Int = 1 << 22) {
        self.logger = logger
        self.maxMessageSize = maxMessageSize
    }

    struct Connection: WebSocketConnection {
        let outbound: WebSocketOutboundWriter

        func send(_ text: String) async throws { try await outbound.write(.text(text)) }
        func close() async { try? await outbound.close(.normalClosure, reason: nil) }
    }

    public func run(
        url: URL, opened: @escaping @Sendable (any WebSocketConnection) async -> Void,
        received: @escaping @Sendable (String) async -> Void
    ) async throws {
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = maxMessageSize
        let maxMessageSize = maxMessageSize
        _ = try await WebSocketClient.connect(url: url.absoluteString, configuration: configuration, logger: logger) {
            inbound, outbound, _ in
            await opened(Connection(outbound: outbound))
            for try await message in inbound.messages(maxSize: maxMessageSize) {
                if case .text(let text) = message { await received(text) }
            }
        }
    }
}
