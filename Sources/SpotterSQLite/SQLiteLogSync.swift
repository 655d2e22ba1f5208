import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes committed batches durable: one `fdatasync(2)` of the write-ahead log carries every batch that committed
/// before it began, and runs on a thread of its own while the writer goes on with the next batch.
///
/// With `synchronous = FULL` SQLite syncs the log inside `COMMIT`, holding the writer, so nobody could write while
/// the disk worked: a kudos benchmark pinned to one core left it a third idle. The writer now commits with
/// `synchronous = NORMAL` (SQLite writes the log with `write(2)` at `COMMIT`, and syncs it only around a
/// checkpoint) and a batch's units wait here, for a sync that started after their `COMMIT` returned; no answer,
/// event or `OK` leaves before. A batch that commits while a sync runs waits for the next one, which takes every
/// batch that came in meanwhile: one sync a batch at most, fewer under load.
///
/// A power loss before the sync loses only batches nobody was told of; SQLite's recovery keeps the log's frames
/// up to the last whole commit whose checksums hold, so the database stays consistent either way.
///
/// The log is opened by path (SQLite keeps its own descriptor private); `fsync` flushes the file, whichever
/// descriptor asks. It is opened again when SQLite replaced it (the old one has no links left).
final class SQLiteLogSync: Sendable {
    /// What waits for the next sync: each committed batch's way to hear it is durable.
    typealias Waiter = @Sendable (Result<Void, any Error>) -> Void

    private struct State {
        var syncing = false
        var waiting: [Waiter] = []
    }

    private let logPath: String
    private let state = Mutex(State())
    /// The log's descriptor, -1 until the first sync; only the sync queue (and `deinit`) touches it.
    private let descriptor = Mutex<Int32>(-1)
    private let queue = DispatchQueue(label: "spotter.sqlite.log-sync")

    init(databasePath: String) {
        logPath = databasePath + "-wal"
    }

    deinit {
        let descriptor = descriptor.withLock { $0 }
        if descriptor >= 0 { close(descriptor) }
    }

    /// Calls `waiter` once a sync that began after this call has finished.
    func afterNextSync(_ waiter: @escaping Waiter) {
        let start: Bool = state.withLock { state in
            state.waiting.append(waiter)
            guard !state.syncing else { return false }
            state.syncing = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// Syncs for the waiters there are, again while more came in during the last sync.
    private func drain() {
        while true {
            let waiters: [Waiter] = state.withLock { state in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.syncing = false }
                return state.waiting
            }
            guard !waiters.isEmpty else { return }
            let outcome = descriptor.withLock { sync(&$0) }
            for waiter in waiters { waiter(outcome) }
        }
    }

    private func sync(_ descriptor: inout Int32) -> Result<Void, any Error> {
        var status = stat()
        if descriptor >= 0, fstat(descriptor, &status) == 0, status.st_nlink == 0 {
            close(descriptor)
            descriptor = -1
        }
        if descriptor < 0 {
            descriptor = open(logPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(LogSyncFailed(call: "open", code: errno)) }
        }
        guard fdatasync(descriptor) == 0 else { return .failure(LogSyncFailed(call: "fdatasync", code: errno)) }
        return .success(())
    }
}

/// The write-ahead log could not be synced: the batch's writes are in SQLite, but not known to be on disk, so
/// its units fail (a client's retry with its `Idempotency-Key` replays the stored answer once the disk is back).
struct LogSyncFailed: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call) of the SQLite write-ahead log failed: \(String(cString: strerror(code)))" }
}
