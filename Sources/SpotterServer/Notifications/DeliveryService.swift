import Logging
import ServiceLifecycle
import SpotterCore

/// Runs the delivery job queue for as long as the server runs: due jobs at once, then a look every
/// `pollInterval`. Every node runs one; the queue's claims keep them from sending anything twice.
struct DeliveryService: Service {
    let runner: DeliveryRunner
    let pollInterval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                // A full batch means more may be due: go again at once.
                if try await runner.runDue() > 0 { continue }
            } catch {
                logger.warning("delivery queue unavailable", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: pollInterval)
        }
    }
}

/// Hands each target to the channel that reaches it; a channel this server has no settings for reaches
/// nothing, so its targets are skipped rather than failed.
struct ChannelTransport: DeliveryTransport {
    var channels: [any DeliveryChannelClient]

    func supports(_ target: DeliveryTarget) -> Bool { channels.contains { $0.reaches(target) } }

    func deliver(_ message: OutgoingMessage, to target: DeliveryTarget) async -> DeliveryOutcome {
        guard let channel = channels.first(where: { $0.reaches(target) }) else {
            return .failed(reason: "no channel for \(target.key)")
        }
        return await channel.deliver(message, to: target)
    }
}

/// One way out (APNs, Web Push, SMTP), adapted to the runner's terms.
protocol DeliveryChannelClient: Sendable {
    func reaches(_ target: DeliveryTarget) -> Bool
    func deliver(_ message: OutgoingMessage, to target: DeliveryTarget) async -> DeliveryOutcome
}
