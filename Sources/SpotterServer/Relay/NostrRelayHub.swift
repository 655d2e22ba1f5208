import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import SpotterCore
import SpotterModels
import SpotterNostr

/// The relay's open sockets, and live events out to the subscriptions they match, on every node: each node's
/// hub hears every stored event on the event bus (LISTEN/NOTIFY across nodes).
final class NostrRelayHub: @unchecked Sendable {
    private let relay: NostrRelayService
    private let logger: Logger
    private let lock = NSLock()
    private var connections: [UUID: NostrRelayConnection] = [:]

    init(relay: NostrRelayService, logger: Logger) {
        self.relay = relay
        self.logger = logger
    }

    func add(_ connection: NostrRelayConnection) {
        lock.withLock { connections[connection.id] = connection }
        NostrRelayMetrics.connections.increment()
    }

    func remove(_ connection: NostrRelayConnection) {
        lock.withLock { _ = connections.removeValue(forKey: connection.id) }
        NostrRelayMetrics.connections.decrement()
    }

    var connectionCount: Int { lock.withLock { connections.count } }

    /// Hands one announced event to every subscription it matches, on sockets whose reader may see it.
    func deliver(_ id: NostrEventID, inline: String?) async {
        // Only sockets with a subscription, and only when one of them matches, cost a read: a relay busy taking
        // events with nobody listening (an import, a bench's ingest) reads nothing here.
        let targets = lock.withLock { connections.values.filter { $0.subscriptionCount > 0 } }
        guard !targets.isEmpty else { return }
        do {
            guard
                let live = try await relay.announced(
                    id, inline: inline, if: { event in targets.contains { $0.matches(event) } })
            else { return }
            let json = inline ?? live.event.json
            var batch = OutboundBatch()
            var blocks: [UserID: Set<UserID>] = [:]
            for connection in targets {
                let reader = connection.reader.user
                var blocked = false
                if let reader, let author = live.author?.id {
                    if blocks[reader] == nil { blocks[reader] = try await relay.blockedEitherWay(with: reader) }
                    blocked = blocks[reader]?.contains(author) == true
                }
                guard live.isVisible(to: reader, blockedEitherWay: blocked) else { continue }
                for frame in connection.frames(for: live.event, json: json) {
                    batch.add(WireFrame(text: frame), to: connection.writer)
                }
            }
            batch.send()
        } catch {
            logger.warning("relay delivery failed", metadata: ["event": "\(id)", "error": "\(error)"])
        }
    }

    /// Closes every socket as the server stops.
    func shutDown() {
        for connection in lock.withLock({ Array(connections.values) }) {
            connection.writer.close(.goingAway, reason: SocketWriter.shutdownReason)
        }
    }
}

/// Feeds the relay hub from the event bus for as long as the server runs.
struct NostrRelayHubService: Service {
    let hub: NostrRelayHub
    let events: any EventBus

    func run() async throws {
        // Cancelled as the server stops, which ends the stream (see `RealtimeHubService` for why not
        // `cancelOnGracefulShutdown()` on the stream).
        let hub = hub
        await cancelWhenGracefulShutdown {
            for await event in events.subscribe() {
                if case .nostrEventStored(let id, let inline) = event { await hub.deliver(id, inline: inline) }
            }
        }
        hub.shutDown()
    }
}
