import Foundation
import Logging
import ServiceLifecycle
import SpotterCore

/// Sweeps what has expired — tokens a day past expiry, idempotency records past retention — every hour, so
/// those tables stay the size of what is live. The first sweep waits one interval, so it never races the
/// migrations that run as the server starts.
///
/// On several nodes each runs it; the deletes are idempotent, so that only repeats a cheap query.
struct MaintenanceService: Service {
    let storage: any SpotterStorage
    let clock: any WallClock
    let idempotencyRetention: TimeInterval
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // shutting down
            }
            await sweep()
        }
    }

    func sweep() async {
        let now = clock.now
        do {
            let tokens = try await storage.tokens.deleteExpired(before: now.addingTimeInterval(-24 * 3600))
            let keys = try await storage.idempotency.deleteExpired(
                before: now.addingTimeInterval(-idempotencyRetention))
            let links = try await storage.accountLinks.deleteExpired(before: now.addingTimeInterval(-24 * 3600))
            // Nostr challenges and used sign-in events: past their minute, a replay is refused as stale anyway.
            try await storage.nostr.deleteExpiredOneTimeValues(before: now)
            if tokens + keys + links > 0 {
                logger.info(
                    "swept expired records",
                    metadata: ["tokens": "\(tokens)", "idempotency_keys": "\(keys)", "account_links": "\(links)"])
            }
        } catch {
            logger.warning("maintenance sweep failed", metadata: ["error": "\(error)"])
        }
    }
}
