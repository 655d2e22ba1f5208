import ServiceLifecycle
import Synchronization

/// Opens once, when the database has been migrated.
///
/// Services that read the database from their first moment (the delivery queue, the reminder sweep) start
/// beside the migration, not after it: on a first start with an empty database they polled tables that did
/// not exist yet and logged SQL errors. They wait here instead. (Maintenance sleeps before its first sweep.)
final class ReadinessGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open (`true`) or the task is cancelled first (`false`).
    func wait() async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                // Checked under the lock, so a cancellation that came before this waiter was registered is
                // not missed.
                let now = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = waiter
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        return state.withLock { $0.isOpen }
    }
}

extension ReadinessGate {
    /// `wait()` for a service: a graceful shutdown before the gate opens ends the wait too (`false`).
    func waitUnlessShuttingDown() async -> Bool {
        await cancelWhenGracefulShutdown { await self.wait() }
    }
}
