import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import SpotterModels

/// A Phoenix Channels v2 client written from the protocol, not from the server's code: it connects over a
/// real WebSocket, sends frames and collects what arrives.
final class PhoenixTestClient: Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let waitingFor: String
        var description: String { "timed out waiting for \(waitingFor)" }
    }

    private let inbox = NIOLockedValueBox<[PhoenixMessage]>([])
    private let writer = NIOLockedValueBox<WebSocketOutboundWriter?>(nil)
    private let closed = NIOLockedValueBox<(done: Bool, frame: WebSocketCloseFrame?)>((false, nil))
    private let task = NIOLockedValueBox<Task<Void, any Error>?>(nil)

    /// Connects with `?token=`, or with the Phoenix 1.8 subprotocol form when `subprotocol` is set.
    static func connect(port: Int, token: String, subprotocol: Bool = false) async throws -> PhoenixTestClient {
        let client = PhoenixTestClient()
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 20  // a workout's new_post can be far over the 16 KiB default
        var url = "ws://127.0.0.1:\(port)/socket/websocket?vsn=2.0.0"
        if subprotocol {
            configuration.additionalHeaders[.secWebSocketProtocol] =
                "phoenix, base64url.bearer.phx.\(Base64URL.encode(token))"
        } else {
            url += "&token=\(token)"
        }
        var logger = Logger(label: "phoenix-test-client")
        logger.logLevel = .warning
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Bool.self)
        let urlToUse = url
        let settings = configuration
        let connection = Task {
            do {
                let frame = try await WebSocketClient.connect(url: urlToUse, configuration: settings, logger: logger) {
                    inbound, outbound, _ in
                    client.writer.withLockedValue { $0 = outbound }
                    readyContinuation.yield(true)
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message,
                            let frame = try? JSONDecoder().decode(PhoenixMessage.self, from: Data(text.utf8))
                        else { continue }
                        client.inbox.withLockedValue { $0.append(frame) }
                    }
                }
                client.closed.withLockedValue { $0 = (true, frame) }
            } catch {
                client.closed.withLockedValue { $0 = (true, nil) }
                readyContinuation.yield(false)
                throw error
            }
            readyContinuation.finish()
        }
        client.task.withLockedValue { $0 = connection }
        var iterator = ready.makeAsyncIterator()
        guard await iterator.next() == true else {
            throw Timeout(waitingFor: "the upgrade (refused)")
        }
        return client
    }

    func send(
        joinRef: String?, ref: String?, topic: String, event: String, payload: JSONValue = .object([:])
    ) async throws {
        let frame = PhoenixMessage(joinRef: joinRef, ref: ref, topic: topic, event: event, payload: payload)
        try await sendText(String(decoding: try JSONEncoder().encode(frame), as: UTF8.self))
    }

    func sendText(_ text: String) async throws {
        guard let writer = writer.withLockedValue({ $0 }) else { throw Timeout(waitingFor: "a connection") }
        try await writer.write(.text(text))
    }

    /// Joins and returns the reply.
    func join(_ topic: String, ref: String, payload: JSONValue = .object([:])) async throws -> PhoenixMessage {
        try await send(joinRef: ref, ref: ref, topic: topic, event: PhoenixMessage.Event.join, payload: payload)
        return try await next { $0.event == PhoenixMessage.Event.reply && $0.ref == ref && $0.topic == topic }
    }

    /// Waits for the first collected frame matching `predicate` (frames before it stay collected).
    func next(
        timeout: Duration = .seconds(5), where predicate: @escaping @Sendable (PhoenixMessage) -> Bool
    )
        async throws -> PhoenixMessage
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = inbox.withLockedValue { frames -> PhoenixMessage? in
                guard let index = frames.firstIndex(where: predicate) else { return nil }
                return frames.remove(at: index)
            }
            if let found { return found }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw Timeout(
            waitingFor: "a matching frame; have \(inbox.withLockedValue { $0.map { "\($0.topic) \($0.event)" } })")
    }

    /// Frames collected so far that match, without waiting (to prove something did *not* arrive).
    func collected(where predicate: (PhoenixMessage) -> Bool) -> [PhoenixMessage] {
        inbox.withLockedValue { $0.filter(predicate) }
    }

    /// Waits until the server closes the socket; returns its close frame.
    func waitForClose(timeout: Duration = .seconds(5)) async throws -> WebSocketCloseFrame? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let state = closed.withLockedValue { $0 }
            if state.done { return state.frame }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw Timeout(waitingFor: "the server to close")
    }

    func close() async {
        try? await writer.withLockedValue({ $0 })?.close(.normalClosure, reason: nil)
        _ = try? await waitForClose(timeout: .seconds(2))
        task.withLockedValue { $0 }?.cancel()
    }
}
