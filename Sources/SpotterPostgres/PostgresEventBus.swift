import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import SpotterCore

/// Pub/sub across nodes through PostgreSQL `LISTEN/NOTIFY`: an event published on node A reaches the
/// subscribers of every node, A included (each node hears its own notifications, so all nodes see events in
/// the same order).
///
/// Payloads are the JSON of `DomainEvent`, a few hundred bytes, far below NOTIFY's 8000-byte limit. The
/// listener is a `Service` holding one connection; when it drops, it reconnects with backoff. Events
/// published while no listener runs are lost to live clients, which is what `since` on rejoin is for.
public final class PostgresEventBus: EventBus, Service, @unchecked Sendable {
    let client: PostgresClient
    let channel: String
    let logger: Logger
    private let local = InProcessEventBus()

    /// `channel` must be a plain identifier (letters, digits, underscores); it is not bound but quoted.
    public init(client: PostgresClient, channel: String = "spotter_events", logger: Logger) {
        self.client = client
        self.channel = channel.filter { $0.isLetter || $0.isNumber || $0 == "_" }
        self.logger = logger
    }

    public func publish(_ event: DomainEvent) async {
        if heldForCommit(event) { return }
        do {
            let payload = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
            try await client.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
        } catch {
            logger.warning("could not publish an event", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    public func subscribe() -> AsyncStream<DomainEvent> { local.subscribe() }

    public func run() async throws {
        var delay: Duration = .milliseconds(100)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let started = ContinuousClock.now
            do {
                try await cancelWhenGracefulShutdown {
                    try await self.client.withConnection { connection in
                        try await connection.listen(on: self.channel) { notifications in
                            for try await notification in notifications {
                                guard
                                    let event = try? JSONDecoder().decode(
                                        DomainEvent.self, from: Data(notification.payload.utf8))
                                else { continue }
                                await self.local.publish(event)
                            }
                        }
                    }
                }
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
                logger.warning("event listener lost its connection; retrying", metadata: ["error": "\(error)"])
                // A listener that ran a while before failing starts its backoff over.
                if ContinuousClock.now - started > .seconds(30) { delay = .milliseconds(100) }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
    }
}
