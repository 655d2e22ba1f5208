import Logging
import ServiceLifecycle
import SpotterCore
import Synchronization

/// Processes uploaded photos as they are completed, and sweeps what nobody uses (encrypted groups' blobs too), on
/// every node.
///
/// A completed upload wakes it at once (`MediaWake`); a poll catches what another node queued or a crashed node
/// left leased. Processing runs in this service's tasks, never in a request's: a request only queues the photo.
struct MediaProcessingService: Service {
    let media: MediaService
    /// Encrypted groups' blobs, swept with the photos.
    let sealedBlobs: E2EBlobService
    let wake: MediaWake
    let pollInterval: Duration
    let sweepInterval: Duration
    let ready: ReadinessGate
    let logger: Logger

    func run() async throws {
        guard await ready.waitUnlessShuttingDown() else { return }
        var lastSweep = ContinuousClock.now - sweepInterval
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            // A full batch means more may be due: go again at once.
            if await media.processDue() > 0 { continue }
            if ContinuousClock.now - lastSweep >= sweepInterval {
                lastSweep = .now
                do {
                    let removed = try await media.sweep() + sealedBlobs.sweep()
                    if removed > 0 { logger.info("unused photos removed", metadata: ["count": "\(removed)"]) }
                } catch {
                    logger.warning("photo sweep failed; the next one retries", metadata: ["error": "\(error)"])
                }
            }
            // A graceful shutdown ends the wait at once (the cancellation rings the bell).
            try? await cancelWhenGracefulShutdown {
                await wake.wait(upTo: pollInterval)
                try Task.checkCancellation()
            }
        }
    }
}

/// A doorbell for the processing loop: `ring` from any task; `wait` returns at the first ring or after a timeout.
/// A ring while nobody waits is kept (one is enough), so a photo completed between two waits is not missed.
final class MediaWake: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    init() {}

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    func wait(upTo timeout: Duration) async {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { ring() }
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            ring()
        }
    }
}
