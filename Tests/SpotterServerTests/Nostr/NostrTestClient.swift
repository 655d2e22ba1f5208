import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import SpotterNostr

/// A relay client written from NIP-01, for what rust-nostr's client hides (the order of frames, `EOSE`,
/// `CLOSED`, `COUNT`, `AUTH`, malformed input): it sends raw messages and collects every message that arrives.
final class NostrTestClient: Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let waitingFor: String
        var description: String { "timed out waiting for \(waitingFor)" }
    }

    private let inbox = NIOLockedValueBox<[NostrRelayMessage]>([])
    private let writer = NIOLockedValueBox<WebSocketOutboundWriter?>(nil)
    private let task = NIOLockedValueBox<Task<Void, any Error>?>(nil)

    static func connect(port: Int) async throws -> NostrTestClient {
        try await connect(url: "ws://127.0.0.1:\(port)/relay")
    }

    static func connect(url: String) async throws -> NostrTestClient {
        let client = NostrTestClient()
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 20
        var logger = Logger(label: "nostr-test-client")
        logger.logLevel = .warning
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Bool.self)
        let connection = Task {
            do {
                _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                    inbound, outbound, _ in
                    client.writer.withLockedValue { $0 = outbound }
                    readyContinuation.yield(true)
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message, let parsed = try? NostrRelayMessage(json: text) else {
                            continue
                        }
                        client.inbox.withLockedValue { $0.append(parsed) }
                    }
                }
            } catch {
                readyContinuation.yield(false)
                throw error
            }
            readyContinuation.finish()
        }
        client.task.withLockedValue { $0 = connection }
        var iterator = ready.makeAsyncIterator()
        guard await iterator.next() == true else { throw Timeout(waitingFor: "the upgrade") }
        return client
    }

    func send(_ message: NostrClientMessage) async throws { try await sendText(message.json) }

    func sendText(_ text: String) async throws {
        guard let writer = writer.withLockedValue({ $0 }) else { throw Timeout(waitingFor: "a connection") }
        try await writer.write(.text(text))
    }

    /// Waits for the first collected message matching `predicate`, and takes it.
    func next(
        timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (NostrRelayMessage) -> Bool
    ) async throws -> NostrRelayMessage {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = inbox.withLockedValue { messages -> NostrRelayMessage? in
                guard let index = messages.firstIndex(where: predicate) else { return nil }
                return messages.remove(at: index)
            }
            if let found { return found }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Timeout(waitingFor: "a matching message; have \(inbox.withLockedValue { $0 })")
    }

    /// Publishes and returns the `OK`'s acceptance and message.
    func publish(_ event: NostrEvent) async throws -> (accepted: Bool, message: String) {
        try await send(.event(event))
        let id = event.id
        let answer = try await next {
            if case .ok(let answered, _, _) = $0 { return answered == id }
            return false
        }
        guard case .ok(_, let accepted, let message) = answer else { return (false, "") }
        return (accepted, message)
    }

    /// Sends a `REQ` and collects its stored events up to `EOSE` (in the order they came), or the `CLOSED`.
    func request(_ subscription: String, _ filters: [NostrFilter]) async throws -> Result<[NostrEvent], Closed> {
        try await send(.request(subscription: subscription, filters: filters))
        var events: [NostrEvent] = []
        while true {
            let message = try await next { message in
                switch message {
                case .event(let name, _), .endOfStoredEvents(let name), .closed(let name, _): name == subscription
                default: false
                }
            }
            switch message {
            case .event(_, let event): events.append(event)
            case .endOfStoredEvents: return .success(events)
            case .closed(_, let text): return .failure(Closed(message: text))
            default: continue
            }
        }
    }

    /// The next live event on `subscription`.
    func nextEvent(on subscription: String, timeout: Duration = .seconds(10)) async throws -> NostrEvent {
        let message = try await next(timeout: timeout) {
            if case .event(let name, _) = $0 { return name == subscription }
            return false
        }
        guard case .event(_, let event) = message else { throw Timeout(waitingFor: "an event") }
        return event
    }

    /// Messages collected so far that match, without waiting.
    func collected(where predicate: (NostrRelayMessage) -> Bool) -> [NostrRelayMessage] {
        inbox.withLockedValue { $0.filter(predicate) }
    }

    func close() async {
        try? await writer.withLockedValue({ $0 })?.close(.normalClosure, reason: nil)
        task.withLockedValue { $0 }?.cancel()
    }

    struct Closed: Error, Equatable { var message: String }
}
