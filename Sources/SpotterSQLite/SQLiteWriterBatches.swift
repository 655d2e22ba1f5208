import Foundation
import Synchronization

/// Who holds SQLite's writer connection, and when the open transaction commits: group commit.
///
/// SQLite has one writer. Units of work take it one at a time, each inside a savepoint of its own, all inside
/// one transaction (the batch) that commits when no unit waits for the writer, or when the batch has grown
/// to `limit` units or `maxAge`. A unit that fails rolls back its own savepoint alone. A unit that succeeded
/// waits for its batch's commit, and the sync of the write-ahead log after it (`SQLiteLogSync`), before anyone
/// hears of it: one `fdatasync` makes every answer in the batch survive power loss, so under load one sync
/// carries many writes, and the writer goes on with the next batch while the disk works.
///
/// This type only decides; `SQLiteDatabase` runs the statements on the writer (BEGIN, savepoints, COMMIT).
final class SQLiteWriterBatches: Sendable {
    /// The open transaction: the units that released their savepoints in it and wait for its commit.
    final class Batch: Sendable {
        private struct State {
            var begun = false
            var units = 0
            var outcome: Result<Void, any Error>?
            var waiters: [CheckedContinuation<Void, any Error>] = []
        }

        private let state = Mutex(State())
        let opened: ContinuousClock.Instant

        init(opened: ContinuousClock.Instant) {
            self.opened = opened
        }

        /// Marks the batch as begun on the writer; `true` for the holder that must send `BEGIN`.
        func begin() -> Bool {
            state.withLock { state in
                defer { state.begun = true }
                return !state.begun
            }
        }

        var units: Int { state.withLock { $0.units } }
        fileprivate func join() { state.withLock { $0.units += 1 } }

        /// Waits for the batch's commit; throws when it failed (the whole batch rolled back).
        func committed() async throws {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.outcome == nil { state.waiters.append(continuation) }
                    return state.outcome
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        }

        fileprivate func finish(_ outcome: Result<Void, any Error>) {
            let waiters = state.withLock { state in
                state.outcome = outcome
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(with: outcome) }
        }
    }

    /// What the unit that just let go of the writer must do next.
    enum Release {
        /// Nothing: another unit holds the writer now, and the batch commits later.
        case handedOver(Batch)
        /// Commit `batch` on the writer, then call `committed(_:_:)`.
        case commit(Batch)
    }

    private struct State {
        var holding = false
        var committing = false
        var batch: Batch?
        var waiting: [CheckedContinuation<Batch, Never>] = []

        /// The open batch, or a new one.
        mutating func openBatch() -> Batch {
            if let batch { return batch }
            let batch = Batch(opened: .now)
            self.batch = batch
            return batch
        }

        /// The next waiting unit, now holding the writer, when it is free.
        mutating func handOver() -> (CheckedContinuation<Batch, Never>, Batch)? {
            guard !holding, !committing, !waiting.isEmpty else { return nil }
            holding = true
            return (waiting.removeFirst(), openBatch())
        }
    }

    private let state = Mutex(State())
    private let limit: Int
    private let maxAge: Duration

    /// `limit` and `maxAge` bound a batch under a steady stream of units (one always waiting), so its first
    /// answers never wait for long.
    init(limit: Int = 256, maxAge: Duration = .milliseconds(20)) {
        self.limit = limit
        self.maxAge = maxAge
    }

    /// Takes the writer, waiting for the unit that holds it (and for a commit under way), and returns the
    /// batch the caller writes in. The caller must `release` it.
    func acquire() async -> Batch {
        let batch: Batch? = state.withLock { state in
            guard !state.holding, !state.committing else { return nil }
            state.holding = true
            return state.openBatch()
        }
        if let batch { return batch }
        return await withCheckedContinuation { continuation in
            let batch: Batch? = state.withLock { state in
                guard !state.holding, !state.committing else {
                    state.waiting.append(continuation)
                    return nil
                }
                state.holding = true
                return state.openBatch()
            }
            if let batch { continuation.resume(returning: batch) }
        }
    }

    /// Takes the writer only if nobody holds it and no batch is open: for reads of committed rows that would
    /// rather use the writer's warm cache but must not see a batch's uncommitted ones.
    func acquireIdle() -> Bool {
        state.withLock { state in
            guard !state.holding, !state.committing, state.batch == nil else { return false }
            state.holding = true
            return true
        }
    }

    /// Gives back a writer taken with `acquireIdle` (no batch was opened).
    func releaseIdle() {
        let next: (CheckedContinuation<Batch, Never>, Batch)? = state.withLock { state in
            state.holding = false
            return state.handOver()
        }
        if let (waiter, batch) = next { waiter.resume(returning: batch) }
    }

    /// Lets go of the writer. `wrote` says the unit's savepoint was released into the batch (it waits for the
    /// commit); a unit that rolled its savepoint back leaves nothing there.
    func release(_ batch: Batch, wrote: Bool) -> Release {
        if wrote { batch.join() }
        let next: (CheckedContinuation<Batch, Never>, Batch)? = state.withLock { state in
            let full = batch.units >= limit || ContinuousClock.now - batch.opened >= maxAge
            guard state.waiting.isEmpty || full else {
                return (state.waiting.removeFirst(), batch)
            }
            state.holding = false
            state.committing = true
            state.batch = nil
            return nil
        }
        if let (waiter, batch) = next {
            waiter.resume(returning: batch)
            return .handedOver(batch)
        }
        return .commit(batch)
    }

    /// Lets the next waiting unit in, and reports the commit's outcome to every unit of `batch`: at once when it
    /// failed or nothing syncs the log, else once `log` synced it.
    func committed(_ batch: Batch, _ outcome: Result<Void, any Error>, log: SQLiteLogSync?) {
        let next: (CheckedContinuation<Batch, Never>, Batch)? = state.withLock { state in
            state.committing = false
            return state.handOver()
        }
        if let log, case .success = outcome {
            log.afterNextSync { batch.finish($0) }
        } else {
            batch.finish(outcome)
        }
        if let (waiter, batch) = next { waiter.resume(returning: batch) }
    }
}
