import Logging
import PostgresNIO
import SpotterCore
import Synchronization

/// The stores' way to PostgreSQL: the connection pool, plus the unit of work (`SpotterStorage.write`).
///
/// Outside a unit every call leases a connection from the pool, as it always did. Inside one, every call
/// runs on the unit's connection, in its transaction (`withTransaction`); a store's own transaction becomes
/// a savepoint there, so a store call that fails still undoes all of its statements and leaves the unit's
/// transaction usable. A unit holds one connection for its length, so it never waits for a second one from
/// a pool its own kind may have emptied.
///
/// One connection runs one query at a time, so every query answers with its rows read to the end
/// (`PostgresRows`, `PostgresSession`): inside a unit the next statement can always be sent.
final class PostgresDatabase: Sendable {
    let client: PostgresClient
    private let logger: Logger

    @TaskLocal private static var unit: OpenUnit?

    init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The unit's connection when the current task is inside an open unit of this database.
    private var unitConnection: PostgresConnection? {
        guard let unit = Self.unit, unit.database === self, unit.isOpen else { return nil }
        return unit.connection
    }

    @discardableResult
    func query(
        _ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws
        -> PostgresRows
    {
        if let connection = unitConnection {
            return try await PostgresRows(connection.query(query, logger: logger, file: file, line: line))
        }
        return try await PostgresRows(client.query(query, logger: logger, file: file, line: line))
    }

    func execute<Statement: PostgresPreparedStatement, Row>(
        _ statement: Statement, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws -> [Row] where Row == Statement.Row {
        let rows =
            if let connection = unitConnection {
                try await connection.execute(statement, logger: logger, file: file, line: line)
            } else {
                try await client.execute(statement, logger: logger, file: file, line: line)
            }
        var read: [Row] = []
        for try await row in rows { read.append(row) }
        return read
    }

    func withTransaction<Result: Sendable>(
        logger: Logger, _ body: (PostgresSession) async throws -> Result
    ) async throws -> Result {
        if let connection = unitConnection {
            return try await Self.savepoint(on: connection, logger: logger) {
                try await body(PostgresSession(connection: connection))
            }
        }
        return try await client.withTransaction(logger: logger) { try await body(PostgresSession(connection: $0)) }
    }

    /// `SpotterStorage.write` for PostgreSQL.
    func unitOfWork<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if let connection = unitConnection {
            return try await UnitOfWork.nested(
                in: { try await Self.savepoint(on: connection, logger: logger, $0) }, body)
        }
        return try await UnitOfWork.run(in: transaction, body)
    }

    /// BEGIN and COMMIT by hand rather than `withTransaction`, so a unit's error reaches the caller as it was
    /// thrown (the idempotency middleware tells a client error from the rest by it), not wrapped.
    private func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            let unit = OpenUnit(database: self, connection: connection)
            do {
                let result = try await Self.$unit.withValue(unit) { try await body() }
                unit.close()
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch let failure as FailureAfterCommit {
                unit.close()
                try await connection.query("COMMIT", logger: logger)
                throw failure
            } catch {
                unit.close()
                // After a failed COMMIT PostgreSQL has rolled back already, and this only warns.
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    private static func savepoint<T: Sendable>(
        on connection: PostgresConnection, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        try await connection.query("SAVEPOINT spotter_unit", logger: logger)
        do {
            let result = try await body()
            try await connection.query("RELEASE SAVEPOINT spotter_unit", logger: logger)
            return result
        } catch let failure as FailureAfterCommit {
            try await connection.query("RELEASE SAVEPOINT spotter_unit", logger: logger)
            throw failure
        } catch {
            // Also what makes the transaction usable again after a failed statement.
            try await connection.query("ROLLBACK TO SAVEPOINT spotter_unit", logger: logger)
            try await connection.query("RELEASE SAVEPOINT spotter_unit", logger: logger)
            throw error
        }
    }
}

/// A unit of work's mark on its task: its database and connection, and whether it is still open.
private final class OpenUnit: Sendable {
    let database: PostgresDatabase
    let connection: PostgresConnection
    private let open = Mutex(true)

    init(database: PostgresDatabase, connection: PostgresConnection) {
        self.database = database
        self.connection = connection
    }

    var isOpen: Bool { open.withLock { $0 } }
    func close() { open.withLock { $0 = false } }
}

extension PostgresDatabase {
    /// Runs a statement that may break a constraint in a savepoint of its own inside a unit: a failed
    /// statement aborts PostgreSQL's whole transaction, and the unit must stay usable for what the caller does
    /// with the refusal (a form shown again with "This username is taken"). Outside a unit the statement is a
    /// transaction of its own already, and runs as it is, so its error reaches the caller unwrapped (the
    /// stores turn a unique violation into `StorageError.duplicate` by it).
    func guardedQuery(_ query: PostgresQuery, logger: Logger) async throws {
        guard let connection = unitConnection else {
            try await self.query(query, logger: logger)
            return
        }
        try await Self.savepoint(on: connection, logger: logger) {
            _ = try await connection.query(query, logger: logger).collect()
        }
    }

    /// Whether a statement that returns a row for each change it made changed anything.
    func changed(_ query: PostgresQuery, logger: Logger) async throws -> Bool {
        !(try await self.query(query, logger: logger).isEmpty)
    }
}
