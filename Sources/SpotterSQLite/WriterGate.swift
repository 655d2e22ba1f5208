import Synchronization

/// Who may send work to SQLite's writer connection: many ordinary writes at once (GRDB's writer queue runs
/// them one after another anyway), or one unit of work alone.
///
/// A unit holds a transaction open on the writer across `await`s, while its handler does other things. Any
/// write queued on the writer meanwhile would run inside that transaction and commit or roll back with a
/// request it has nothing to do with, and any read there would see the unit's uncommitted rows. So a unit
/// waits until the writes already under way are done, and writes that come while a unit runs wait for its
/// end. Ordinary writes pay two uncontended lock round trips and nothing else.
///
/// Units come first once one waits (a stream of writes cannot keep it out); when a unit ends, every write that
/// waited for it goes in before the next unit, so a stream of units cannot keep writes out either.
final class WriterGate: Sendable {
    private struct State {
        var writers = 0
        var unitRuns = false
        var waitingWriters: [CheckedContinuation<Void, Never>] = []
        var waitingUnits: [CheckedContinuation<Void, Never>] = []

        var writerMayEnter: Bool { !unitRuns && waitingUnits.isEmpty }
        var unitMayEnter: Bool { !unitRuns && writers == 0 }
    }

    private let state = Mutex(State())

    /// Runs an ordinary write (or writer read) once no unit runs.
    func write<T>(_ body: () async throws -> T) async throws -> T {
        let entered = state.withLock { state in
            guard state.writerMayEnter else { return false }
            state.writers += 1
            return true
        }
        if !entered {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    guard state.writerMayEnter else {
                        state.waitingWriters.append(continuation)
                        return false
                    }
                    state.writers += 1
                    return true
                }
                if now { continuation.resume() }
            }
        }
        defer { leaveWrite() }
        return try await body()
    }

    /// Runs a unit of work alone.
    func unit<T>(_ body: () async throws -> T) async throws -> T {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.unitMayEnter, state.waitingUnits.isEmpty else {
                    state.waitingUnits.append(continuation)
                    return false
                }
                state.unitRuns = true
                return true
            }
            if now { continuation.resume() }
        }
        defer { leaveUnit() }
        return try await body()
    }

    private func leaveWrite() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.writers -= 1
            guard state.writers == 0, !state.waitingUnits.isEmpty else { return nil }
            state.unitRuns = true
            return state.waitingUnits.removeFirst()
        }
        next?.resume()
    }

    private func leaveUnit() {
        let (writers, unit): ([CheckedContinuation<Void, Never>], CheckedContinuation<Void, Never>?) =
            state.withLock { state in
                state.unitRuns = false
                if !state.waitingWriters.isEmpty {
                    // The waiting writes go in; the next unit follows them (`leaveWrite`).
                    let writers = state.waitingWriters
                    state.waitingWriters = []
                    state.writers += writers.count
                    return (writers, nil)
                }
                guard !state.waitingUnits.isEmpty else { return ([], nil) }
                state.unitRuns = true
                return ([], state.waitingUnits.removeFirst())
            }
        for writer in writers { writer.resume() }
        unit?.resume()
    }
}
