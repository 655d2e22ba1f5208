import GRDB
import SpotterCore
import Synchronization

/// The stores' way to the database file: GRDB's pool for reads, and the writer, taken one unit of work at a
/// time and committed in batches (`SQLiteWriterBatches`).
///
/// Every write belongs to a unit (`SpotterStorage.write`); a store call made outside one is a unit of its
/// own. A unit reads from the pool until its first write, as PostgreSQL's READ COMMITTED units do, so the
/// writer is held for writing and not for the handler's reads. Its first write takes the writer and opens
/// the unit's savepoint in the batch's transaction; from then on every call of the unit (reads too, so they
/// see its own rows) runs on the writer, each store write in a savepoint of its own, so a store call that
/// fails still undoes all of its statements (a savepoint with nothing changed before it shares the one
/// below, `SQLiteSavepoints`). When the unit ends, its savepoint is released into the batch (or
/// rolled back, alone), the writer goes to the next unit, and the unit waits for its batch's commit and the
/// sync of the log after it (`SQLiteLogSync`): nobody hears of a change, and no answer leaves, before the
/// write-ahead log holding it is on disk.
///
/// GRDB's writer closures are synchronous, so the batch's transaction stays open between them, across the
/// handlers' `await`s; only the unit holding the writer sends work there.
final class SQLiteDatabase: Sendable {
    let pool: DatabasePool
    private let batches = SQLiteWriterBatches()
    /// Syncs the write-ahead log after each batch's commit; `nil` for a throwaway database (the test suite's).
    private let log: SQLiteLogSync?
    /// The readers of `lookup`, opened at the first (after the migrations made the file).
    private let lookups = Mutex<DatabasePool?>(nil)
    /// The savepoints open on the writer, for the unit that holds it (`SQLiteSavepoints`).
    private let savepoints = SQLiteSavepoints()

    /// The unit of work the current task runs in, if any (inherited by child tasks; see `UnitOfWork`).
    @TaskLocal private static var unit: OpenUnit?

    init(pool: DatabasePool, durable: Bool) {
        self.pool = pool
        log = durable ? SQLiteLogSync(databasePath: pool.path) : nil
    }

    /// The current task's open unit of this database.
    private var currentUnit: OpenUnit? {
        guard let unit = Self.unit, unit.database === self, unit.isOpen else { return nil }
        return unit
    }

    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard let unit = currentUnit else { return try await transaction { try await self.write(updates) } }
        try await writing(unit)
        return try onWriter { db in
            try savepoints.open(db)
            do {
                let result = try updates(db)
                try savepoints.close(db, keeping: true)
                return result
            } catch {
                // Fails when the statement rolled back the whole batch (SQLITE_FULL): `finish` finds it gone.
                try? savepoints.close(db, keeping: false)
                throw error
            }
        }
    }

    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let unit = currentUnit, unit.writes { return try onWriter(value) }
        return try await pool.read(value)
    }

    func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let unit = currentUnit, unit.writes { return try onWriter(value) }
        return try await pool.unsafeRead(value)
    }

    /// A point read of one statement (a row by its key), on the calling thread: `unsafeRead` without the hop to
    /// a reader's thread and back, two thread switches that cost more than the lookup (keyed kudos: +13%/s).
    /// Only for statements that read a row or a few by an index: a long read here would hold one of the
    /// concurrency pool's few threads. Inside a unit that writes it runs on the writer, as every read of such a
    /// unit does.
    func lookup<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let unit = currentUnit, unit.writes { return try onWriter(value) }
        return try lookupNow(value)
    }

    /// GRDB's synchronous `unsafeRead` (a function that is not `async` picks it), on a read-only pool of its own.
    ///
    /// Not on `pool`: GRDB's asynchronous reads keep their reader across an `await` (they give it back on a
    /// concurrency thread), so with every reader held by one and both concurrency threads blocked here waiting
    /// for a reader, nothing could ever give one back (the test suite hung so). This pool is only read
    /// synchronously: whoever holds one of its readers is running, and gives it back.
    private func lookupNow<T>(_ value: (Database) throws -> T) throws -> T {
        let lookups = try lookups.withLock { lookups in
            if let lookups { return lookups }
            var configuration = SQLiteStorage.configuration(syncsEachCommit: false)
            configuration.readonly = true
            let opened = try DatabasePool(path: pool.path, configuration: configuration)
            lookups = opened
            return opened
        }
        return try lookups.unsafeRead(value)
    }

    /// A read on the writer's connection, for short reads that follow a write on the same path (a new
    /// notification's recipient rules, the hub rendering it).
    ///
    /// In WAL mode SQLite drops a reader connection's whole page cache whenever the file changed since its
    /// last read, so under a steady stream of writes every pool read starts cold and re-reads each page with
    /// `pread(2)`. The writer's connection keeps its cache, since the changes are its own. Outside a unit the
    /// read takes the writer only when it is idle, with no batch open whose uncommitted rows it could see;
    /// otherwise it reads from the pool.
    ///
    /// Inside a unit it takes the writer, as a write would: for a read a write of the unit is computed from
    /// (a person's personal bests before a workout moves them), which no other unit may change in between.
    func readOnWriter<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let unit = currentUnit {
            try await writing(unit)
            return try onWriter(value)
        }
        guard batches.acquireIdle() else { return try await pool.read(value) }
        defer { batches.releaseIdle() }
        return try onWriter(value)
    }

    /// `SpotterStorage.write` for SQLite.
    func unitOfWork<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if currentUnit != nil { return try await UnitOfWork.nested(in: savepoint, body) }
        return try await UnitOfWork.run(in: transaction, body)
    }

    /// Runs `body` as a unit: its writes go into a batch, and it returns once that batch committed.
    private func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let unit = OpenUnit(database: self)
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await Self.$unit.withValue(unit) { try await body() })
        } catch {
            outcome = .failure(error)
        }
        if let batch = unit.close() {
            try await finish(batch, keeping: outcome.keepsWrites)
        }
        return try outcome.get()
    }

    /// Makes `unit` the writer's holder, if it is not yet: takes the writer, begins the batch's transaction if
    /// it is the batch's first unit, and opens the unit's savepoint (and those of the `storage.write`s it is
    /// inside, which opened none while it only read).
    private func writing(_ unit: OpenUnit) async throws {
        guard let pending = try await unit.startWriting() else { return }
        let batch = await batches.acquire()
        do {
            try onWriter { db in
                if batch.begin() {
                    try db.control("BEGIN IMMEDIATE TRANSACTION")
                } else if !db.isInsideTransaction {
                    throw SQLiteBatchLost()
                }
                try savepoints.openUnit(db)
                for _ in 0..<pending { try savepoints.open(db) }
            }
        } catch {
            unit.failedToWrite(error)
            try? await release(batch, wrote: false)
            throw error
        }
        unit.wrote(in: batch)
    }

    /// Ends a unit that wrote: releases its savepoint into the batch (or rolls it back), lets go of the
    /// writer, and waits for the batch's commit when its writes are in it.
    private func finish(_ batch: SQLiteWriterBatches.Batch, keeping: Bool) async throws {
        let kept: Bool
        do {
            kept = try onWriter { db in
                // A failed statement may have rolled back the whole transaction (SQLITE_FULL, an I/O error);
                // then the batch is lost, and its commit fails for every unit in it.
                guard db.isInsideTransaction else { return false }
                try savepoints.close(db, keeping: keeping)
                return keeping
            }
        } catch {
            try? await release(batch, wrote: false)
            throw error
        }
        try await release(batch, wrote: kept)
    }

    /// Lets go of the writer; commits the batch when this unit is its last, and waits for the commit when
    /// `wrote`.
    private func release(_ batch: SQLiteWriterBatches.Batch, wrote: Bool) async throws {
        if case .commit(let batch) = batches.release(batch, wrote: wrote) {
            let outcome: Result<Void, any Error>
            do {
                try await committing { db in
                    guard db.isInsideTransaction else { throw SQLiteBatchLost() }
                    try db.commit()
                }
                outcome = .success(())
            } catch {
                try? await committing { db in if db.isInsideTransaction { try db.rollback() } }
                outcome = .failure(error)
            }
            batches.committed(batch, outcome, log: log)
        }
        if wrote { try await batch.committed() }
    }

    /// `storage.write` inside a unit: a savepoint when the unit writes already; otherwise one the unit opens
    /// with its first write, if any.
    private func savepoint<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let unit = currentUnit else { return try await body() }
        let openedNow = unit.writes
        if openedNow {
            try onWriter { db in try savepoints.open(db) }
        } else {
            unit.deferSavepoint()
        }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        let open = openedNow || unit.endDeferredSavepoint()
        if open {
            let keeping = outcome.keepsWrites
            try onWriter { db in try savepoints.close(db, keeping: keeping) }
        }
        return try outcome.get()
    }

    /// Runs `body` on the writer connection without a transaction of its own, on the calling thread, and
    /// returns when it is done.
    ///
    /// Only the unit holding the writer (`SQLiteWriterBatches`) sends work here, so GRDB's writer queue is idle
    /// and `dispatch_sync` runs `body` at once on this thread: a unit's statements are microseconds each, and
    /// a hop to the writer's thread and back (two thread switches, a continuation) cost more than most of them.
    /// Blocking this thread is what the commit's `fsync` must not do, so the commit hops (`committing`). GRDB's
    /// synchronous API has no cancellation check: a unit's statements, and its savepoints, always run to the
    /// end, so no transaction is ever left half done on the writer.
    private func onWriter<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction(body)
    }

    /// `body` on the writer's own thread, which the caller's task waits for without holding a thread: for the
    /// commit, whose `fsync` may take milliseconds. Through GRDB's callback API, which a cancelled task cannot
    /// interrupt.
    private func committing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pool.asyncWriteWithoutTransaction { db in continuation.resume(with: Result { try body(db) }) }
        }
    }
}

extension Database {
    /// Runs a transaction-control statement (BEGIN, SAVEPOINT, RELEASE, ROLLBACK TO) from GRDB's statement
    /// cache (`SQLiteSavepoints` sends most). `execute(sql:)` (and GRDB's `inSavepoint`, built on it)
    /// parses each afresh: callgrind counted 22 parses per kudos, about 127,000 instructions of its 1.9
    /// million.
    func control(_ sql: String) throws {
        try cachedStatement(sql: sql).execute()
    }
}

/// The batch's transaction ended before its commit (a failed statement rolled it back whole).
struct SQLiteBatchLost: Error, CustomStringConvertible {
    var description: String { "SQLite rolled back the open batch of writes" }
}

extension Result {
    /// Whether a unit that ended this way keeps its writes: it returned, or failed after its commit.
    fileprivate var keepsWrites: Bool {
        switch self {
        case .success: true
        case .failure(let error): error is FailureAfterCommit
        }
    }
}

/// A unit of work's mark on its task: which database it belongs to, whether it is still open, and whether it
/// holds the writer yet.
private final class OpenUnit: Sendable {
    private enum Phase {
        /// Reading from the pool; `savepoints` is how many `storage.write`s it is inside.
        case reading(savepoints: Int)
        /// Taking the writer; the unit's other tasks wait for it.
        case starting(savepoints: Int, waiters: [CheckedContinuation<Void, any Error>])
        case writing(SQLiteWriterBatches.Batch)
    }

    let database: SQLiteDatabase
    private let state = Mutex((isOpen: true, phase: Phase.reading(savepoints: 0)))

    init(database: SQLiteDatabase) {
        self.database = database
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    var writes: Bool {
        state.withLock { state in
            if case .writing = state.phase { return true }
            return false
        }
    }

    /// Closes the unit; returns the batch it wrote in, if any.
    func close() -> SQLiteWriterBatches.Batch? {
        state.withLock { state in
            state.isOpen = false
            if case .writing(let batch) = state.phase { return batch }
            return nil
        }
    }

    /// `nil` when the unit writes already (after waiting for another of its tasks to take the writer);
    /// otherwise how many deferred savepoints the caller, who must take the writer, opens.
    func startWriting() async throws -> Int? {
        enum Next {
            case writes, take(Int), wait
        }
        let next: Next = state.withLock { state in
            switch state.phase {
            case .writing: return .writes
            case .starting: return .wait
            case .reading(let savepoints):
                state.phase = .starting(savepoints: savepoints, waiters: [])
                return .take(savepoints)
            }
        }
        switch next {
        case .writes: return nil
        case .take(let savepoints): return savepoints
        case .wait:
            try await withCheckedThrowingContinuation { continuation in
                let now: Bool = state.withLock { state in
                    guard case .starting(let savepoints, var waiters) = state.phase else { return true }
                    waiters.append(continuation)
                    state.phase = .starting(savepoints: savepoints, waiters: waiters)
                    return false
                }
                if now { continuation.resume() }
            }
            return writes ? nil : try await startWriting()
        }
    }

    func wrote(in batch: SQLiteWriterBatches.Batch) {
        let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            defer { state.phase = .writing(batch) }
            guard case .starting(_, let waiters) = state.phase else { return [] }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func failedToWrite(_ error: any Error) {
        let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            guard case .starting(let savepoints, let waiters) = state.phase else { return [] }
            state.phase = .reading(savepoints: savepoints)
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// A `storage.write` began while the unit only reads: its savepoint opens with the unit's first write.
    func deferSavepoint() {
        state.withLock { state in
            if case .reading(let savepoints) = state.phase { state.phase = .reading(savepoints: savepoints + 1) }
        }
    }

    /// That `storage.write` ended; `true` when its savepoint was opened meanwhile and must be closed.
    func endDeferredSavepoint() -> Bool {
        state.withLock { state in
            switch state.phase {
            case .writing: return true
            case .reading(let savepoints):
                state.phase = .reading(savepoints: max(0, savepoints - 1))
                return false
            case .starting: return false
            }
        }
    }
}
