import GRDB
import SpotterCore
import Synchronization

/// The stores' way to the database file: GRDB's pool, plus the unit of work (`SpotterStorage.write`).
///
/// Outside a unit every call goes to the pool as it always did, writes through the `WriterGate`. Inside one,
/// every call (reads too, so they see the unit's own rows) runs on the writer connection, in the unit's
/// `BEGIN IMMEDIATE` transaction; a store's write there is a savepoint, so a store call that fails still
/// undoes all of its own statements, as its transaction did. GRDB's writer closures are synchronous, so the
/// transaction stays open between them, across the handler's `await`s, and the gate keeps every other
/// writer out until the commit (SQLite has one writer anyway).
final class SQLiteDatabase: Sendable {
    let pool: DatabasePool
    private let gate = WriterGate()

    /// The unit of work the current task runs in, if any (inherited by child tasks; see `UnitOfWork`).
    @TaskLocal private static var unit: OpenUnit?

    init(pool: DatabasePool) {
        self.pool = pool
    }

    /// Whether the current task is inside an open unit of this database.
    private var inUnit: Bool {
        guard let unit = Self.unit, unit.database === self else { return false }
        return unit.isOpen
    }

    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if inUnit {
            return try await onWriter { db in
                var result: T?
                try db.inSavepoint {
                    result = try updates(db)
                    return .commit
                }
                return result!
            }
        }
        return try await gate.write { try await pool.write(updates) }
    }

    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if inUnit { return try await onWriter(value) }
        return try await pool.read(value)
    }

    func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if inUnit { return try await onWriter(value) }
        return try await pool.unsafeRead(value)
    }

    /// See `DatabasePool.readOnWriter`.
    func readOnWriter<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if inUnit { return try await onWriter(value) }
        return try await gate.write { try await pool.readOnWriter(value) }
    }

    /// `SpotterStorage.write` for SQLite.
    func unitOfWork<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if inUnit { return try await UnitOfWork.nested(in: savepoint, body) }
        return try await UnitOfWork.run(in: transaction, body)
    }

    private func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await gate.unit {
            try await onWriter { db in try db.beginTransaction(.immediate) }
            let unit = OpenUnit(database: self)
            do {
                let result = try await Self.$unit.withValue(unit) { try await body() }
                unit.close()
                try await onWriter { db in try db.commit() }
                return result
            } catch {
                unit.close()
                // A statement interrupted inside a transaction may have rolled it back already.
                try? await onWriter { db in if db.isInsideTransaction { try db.rollback() } }
                throw error
            }
        }
    }

    private func savepoint<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await onWriter { db in try db.execute(sql: "SAVEPOINT spotter_unit") }
        do {
            let result = try await body()
            try await onWriter { db in try db.execute(sql: "RELEASE SAVEPOINT spotter_unit") }
            return result
        } catch {
            try? await onWriter { db in
                try db.execute(sql: "ROLLBACK TO SAVEPOINT spotter_unit")
                try db.execute(sql: "RELEASE SAVEPOINT spotter_unit")
            }
            throw error
        }
    }

    /// Runs `body` on the writer connection without a transaction of its own. Through GRDB's callback API,
    /// which a cancelled task cannot interrupt: a unit's statements, and its commit or rollback, always run
    /// to the end, so no transaction is ever left open on the writer.
    private func onWriter<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pool.asyncWriteWithoutTransaction { db in continuation.resume(with: Result { try body(db) }) }
        }
    }
}

/// A unit of work's mark on its task: which database it belongs to, and whether it is still open.
private final class OpenUnit: Sendable {
    let database: SQLiteDatabase
    private let open = Mutex(true)

    init(database: SQLiteDatabase) {
        self.database = database
    }

    var isOpen: Bool { open.withLock { $0 } }
    func close() { open.withLock { $0 = false } }
}
