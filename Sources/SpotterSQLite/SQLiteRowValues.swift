import Foundation
import GRDB
import GRDBSQLite

/// A row's values by position, read alike from GRDB's `Row` and from a statement's current row in place
/// (`Database.firstRow`), so one record function serves both.
protocol SQLiteRowValues {
    /// The text at `index`; `nil` for NULL.
    func text(_ index: Int) -> String?
    /// The number at `index` as a double; `nil` for NULL.
    func real(_ index: Int) -> Double?
    /// The integer at `index`; `nil` for NULL.
    func integer(_ index: Int) -> Int?
}

extension SQLiteRowValues {
    /// The text at `index` of a `NOT NULL` column.
    func text(_ index: Int) -> String { text(index) ?? "" }
    func real(_ index: Int) -> Double { real(index) ?? 0 }
    func integer(_ index: Int) -> Int { integer(index) ?? 0 }
    func bool(_ index: Int) -> Bool { integer(index) != 0 }
}

extension Row: SQLiteRowValues {
    func text(_ index: Int) -> String? { self[index] }
    func real(_ index: Int) -> Double? { self[index] }
    func integer(_ index: Int) -> Int? { self[index] }
}

/// A statement's current row, read in place with SQLite's column functions.
struct SQLiteStatementRow: SQLiteRowValues {
    let statement: SQLiteStatement

    func text(_ index: Int) -> String? {
        guard let text = sqlite3_column_text(statement, Int32(index)) else { return nil }
        return String(cString: text)
    }

    func real(_ index: Int) -> Double? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL
            ? nil : sqlite3_column_double(statement, Int32(index))
    }

    func integer(_ index: Int) -> Int? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL
            ? nil : Int(sqlite3_column_int64(statement, Int32(index)))
    }

    /// The bytes at `index`, as GRDB reads a BLOB; `nil` for NULL.
    func blob(_ index: Int) -> Data? {
        guard sqlite3_column_type(statement, Int32(index)) != SQLITE_NULL else { return nil }
        guard let bytes = sqlite3_column_blob(statement, Int32(index)) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, Int32(index))))
    }
}

extension Database {
    /// The first row of a cached query (a `SELECT`), read in place by position, or `nil` when it has none.
    ///
    /// For the point reads every request makes (the bearer token, a kudos' post, the notifier's rules, an
    /// idempotency key). GRDB's `Row.fetchOne` builds a row object that lowercases every column's name into a
    /// dictionary before the first step, then copies the row: about 35,000 instructions a statement beyond
    /// SQLite's own work, and a keyed kudos ran four such statements (callgrind). Here GRDB still prepares,
    /// caches and binds the statement (`setArguments` checks the arguments against it); the step and the
    /// column reads are SQLite's own functions. Only for statements that change nothing: GRDB's observation
    /// of changes and transactions is not told of this step.
    func firstRow<T>(
        cached sql: String, arguments: StatementArguments, _ read: (SQLiteStatementRow) throws -> T
    ) throws -> T? {
        let statement = try cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        let sqliteStatement = statement.sqliteStatement
        defer { sqlite3_reset(sqliteStatement) }
        switch sqlite3_step(sqliteStatement) {
        case SQLITE_ROW: return try read(SQLiteStatementRow(statement: sqliteStatement))
        case SQLITE_DONE: return nil
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqliteConnection)),
                sql: sql)
        }
    }
}
