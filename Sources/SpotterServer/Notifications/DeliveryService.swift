import Foundation
import Logging
import ServiceLifecycle
import SpotterCore

/// Runs the delivery job queue for as long as the server runs: due jobs at once, then a look every
/// `pollInterval`. Every node runs one; the queue's claims keep them from sending anything twice.
struct DeliveryService: Service {
    let runner: DeliveryRunner
    let pollInterval: Duration
    let ready: ReadinessGate
    let logger: Logger

    func run() async throws {
        guard await ready.waitUnlessShuttingDown() else { return }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                // A full batch means more may be due: go again at once.
                if try await runner.runDue() > 0 { continue }
            } catch {
                logger.warning("delivery queue unavailable", metadata: ["error": "\(error)"])
            }
            // A graceful shutdown ends the wait at once; a stop must not wait out the interval.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pollInterval) }
        }
    }
}

/// Sweeps for streak-at-risk and weekly-summary reminders every `interval`, alongside the queue.
///
/// The first sweep looks back `catchUp`, so a node that was down at someone's evening still reminds them
/// when it is back; the notifier's dedupe keeps that, and several nodes sweeping, from reminding twice.
struct ReminderService: Service {
    static let catchUp: TimeInterval = 3 * 3600

    let sweep: ReminderSweep
    let clock: any WallClock
    let interval: Duration
    let ready: ReadinessGate
    let logger: Logger

    func run() async throws {
        guard await ready.waitUnlessShuttingDown() else { return }
        var since = clock.now.addingTimeInterval(-Self.catchUp)
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let now = clock.now
            do {
                let sent = try await sweep.run(since: since, now: now)
                if sent > 0 { logger.info("reminders sent", metadata: ["count": "\(sent)"]) }
                since = now
            } catch {
                logger.warning(
                    "reminder sweep failed; the next one covers this one's time", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
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
