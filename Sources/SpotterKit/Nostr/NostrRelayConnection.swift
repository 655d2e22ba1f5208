import Foundation
import Logging
import SpotterNostr

/// One WebSocket to one Nostr relay (NIP-01): publishes events and waits for each one's `OK`, and reads stored
/// events with `REQ` until `EOSE`. Over SpotterKit's `WebSocketTransport` (HummingbirdWSClient by default,
/// which runs on Linux and Apple platforms alike); what it waits for is kept by `NostrRelayExchange`.
///
/// ```swift
/// let relay = NostrRelayConnection(url: NostrRelayURL("wss://relay.example")!)
/// try await relay.connect()
/// let result = try await relay.publish(event)     // result.isDelivered, or result.message says why not
/// await relay.close()
/// ```
///
/// <https://github.com/nostr-protocol/nips/blob/master/01.md>
public actor NostrRelayConnection {
    public nonisolated let url: NostrRelayURL
    /// How long `connect`, `publish` and `query` wait for the relay before throwing `NostrRelayError.timedOut`.
    public nonisolated let timeout: Duration
    private let transport: any WebSocketTransport
    private let logger: Logger
    private var exchange = NostrRelayExchange()
    private var socket: Task<Void, Never>?
    private var writer: (any WebSocketConnection)?
    private var ended: NostrRelayError?
    private var opening: [CheckedContinuation<Void, any Error>] = []
    private var waiting: [NostrRelayExchange.Waiter: CheckedContinuation<NostrRelayExchange.Completion, any Error>] =
        [:]
    private var nextWaiter = 0

    public init(
        url: NostrRelayURL, timeout: Duration = .seconds(10),
        transport: any WebSocketTransport = HummingbirdWebSocketTransport(), logger: Logger? = nil
    ) {
        self.url = url
        self.timeout = timeout
        self.transport = transport
        self.logger = logger ?? Logger(label: "spotterkit.nostr.relay")
    }

    /// Opens the socket (once); throws `NostrRelayError.unreachable` when the relay cannot be reached.
    public func connect() async throws {
        if writer != nil { return }
        if let ended { throw ended }
        if socket == nil { open() }
        try await withOpeningTimeout()
    }

    /// Sends the event and waits for the relay's `OK` for it.
    public func publish(_ event: NostrEvent) async throws -> NostrPublishResult {
        try await connect()
        let completion = try await wait(sending: .event(event)) { $0.awaitOK(for: event.id, waiter: $1) }
        guard case .published(_, let result) = completion else { throw NostrRelayError.closed("unexpected answer") }
        return result
    }

    /// The relay's stored events matching `filters` (a `REQ` closed at its `EOSE`).
    public func query(_ filters: [NostrFilter]) async throws -> [NostrEvent] {
        try await connect()
        let subscription = "q\(nextWaiter)-\(UInt32.random(in: 0...UInt32.max))"
        let completion = try await wait(sending: .request(subscription: subscription, filters: filters)) {
            $0.awaitStoredEvents(subscription: subscription, waiter: $1)
        }
        guard case .queried(_, let events, let closed) = completion else {
            throw NostrRelayError.closed("unexpected answer")
        }
        if let closed { throw NostrRelayError.refused(closed) }
        try? await send(.close(subscription: subscription))
        return events
    }

    /// Closes the socket; what still waits fails with `NostrRelayError.closed`.
    public func close() async {
        let writer = self.writer
        end(.closed("closed by the client"))
        await writer?.close()
    }

    // MARK: The socket

    private func open() {
        let (transport, url) = (self.transport, self.url)
        socket = Task {
            do {
                try await transport.run(
                    url: url.url, opened: { await self.opened($0) }, received: { await self.received($0) })
                self.end(.closed("the relay closed the connection"))
            } catch {
                self.end(.unreachable("\(error)"))
            }
        }
    }

    private func opened(_ connection: any WebSocketConnection) {
        writer = connection
        for continuation in opening { continuation.resume() }
        opening = []
    }

    private func waitUntilOpen() async throws {
        if writer != nil { return }
        if let ended { throw ended }
        try await withCheckedThrowingContinuation { opening.append($0) }
    }

    private func received(_ text: String) {
        guard let message = try? NostrRelayMessage(json: text) else {
            logger.debug("unreadable relay message", metadata: ["relay": "\(url)"])
            return
        }
        if case .notice(let notice) = message { logger.debug("relay notice", metadata: ["notice": "\(notice)"]) }
        for completion in exchange.receive(message) {
            let waiter: NostrRelayExchange.Waiter =
                switch completion {
                case .published(let waiter, _), .queried(let waiter, _, _): waiter
                }
            waiting.removeValue(forKey: waiter)?.resume(returning: completion)
        }
    }

    private func end(_ reason: NostrRelayError) {
        if ended == nil { ended = reason }
        writer = nil
        for continuation in opening { continuation.resume(throwing: reason) }
        opening = []
        for waiter in exchange.drop() { waiting.removeValue(forKey: waiter)?.resume(throwing: reason) }
        socket?.cancel()
    }

    private func send(_ message: NostrClientMessage) async throws {
        guard let writer else { throw ended ?? NostrRelayError.closed("not connected") }
        try await writer.send(message.json)
    }

    // MARK: Waiting, with a timeout

    /// Registers a waiter with the exchange, sends `message`, and waits for the completion, at most `timeout`.
    private func wait(
        sending message: NostrClientMessage,
        registering: (inout NostrRelayExchange, NostrRelayExchange.Waiter) -> Void
    ) async throws -> NostrRelayExchange.Completion {
        nextWaiter += 1
        let waiter = nextWaiter
        let timer = Task { [timeout] in
            try await Task.sleep(for: timeout)
            self.fail(waiter, NostrRelayError.timedOut)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            // Runs on this actor, before anything the relay sends in answer can be received.
            if let ended {
                continuation.resume(throwing: ended)
                return
            }
            waiting[waiter] = continuation
            registering(&exchange, waiter)
            Task {
                do { try await self.send(message) } catch { self.fail(waiter, error) }
            }
        }
    }

    private func fail(_ waiter: NostrRelayExchange.Waiter, _ error: any Error) {
        exchange.cancel(waiter)
        waiting.removeValue(forKey: waiter)?.resume(throwing: error)
    }

    /// Waits for the socket to open, at most `timeout`; a socket that did not open in time is given up.
    private func withOpeningTimeout() async throws {
        let timer = Task { [timeout] in
            try await Task.sleep(for: timeout)
            self.end(.timedOut)
        }
        defer { timer.cancel() }
        try await waitUntilOpen()
    }
}

/// Why a relay could not be asked.
public enum NostrRelayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The socket could not be opened: no network, no relay there, a refused handshake.
    case unreachable(String)
    /// The relay did not answer in time.
    case timedOut
    /// The connection ended before the answer.
    case closed(String)
    /// The relay closed a subscription (`CLOSED`), with its message.
    case refused(String)

    public var description: String {
        switch self {
        case .unreachable(let detail): "the relay cannot be reached: \(detail)"
        case .timedOut: "the relay did not answer in time"
        case .closed(let detail): "the connection ended: \(detail)"
        case .refused(let message): "the relay refused: \(message)"
        }
    }
}
