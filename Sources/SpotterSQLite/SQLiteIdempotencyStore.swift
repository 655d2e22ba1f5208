import Foundation
import GRDB
import GRDBSQLite
import SpotterCore
import SpotterSQL

struct SQLiteIdempotencyStore: IdempotencyStore {
    let database: SQLiteDatabase

    func find(scope: String, key: String) async throws -> IdempotencyRow? {
        try await database.lookup { db in
            try db.firstRow(cached: IdempotencySQL.find.sqlite, arguments: ["scope": scope, "key": key]) { row in
                IdempotencyRow(
                    fingerprint: row.text(0), createdAt: Date(sqliteValue: row.real(1)), status: row.integer(2),
                    contentType: row.text(3), body: Self.blob(row.statement, at: 4))
            }
        }
    }

    /// The body as bytes, as GRDB reads a BLOB (`nil` for NULL).
    private static func blob(_ statement: SQLiteStatement, at index: Int32) -> Data? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(statement, index))
        guard let bytes = sqlite3_column_blob(statement, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    private static func row(
        _ statement: SQLStatement, scope: String, key: String, _ db: Database
    ) throws -> IdempotencyRow? {
        try Row.fetchOne(cached: db, sql: statement.sqlite, arguments: ["scope": scope, "key": key]).map { row in
            IdempotencyRow(
                fingerprint: row["fingerprint"], createdAt: Date(sqliteValue: row["created_at"]),
                status: row["status"], contentType: row["content_type"], body: row["body"])
        }
    }

    func record(
        scope: String, key: String, fingerprint: String, response: StoredResponse, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    {
        // On the one writer: the insert, and the look at a record already there, see every earlier unit's rows.
        try await database.write { db in
            let arguments: StatementArguments = [
                "scope": scope, "key": key, "fingerprint": fingerprint, "now": now.sqliteValue,
                "status": response.status, "content_type": response.contentType, "body": response.body,
            ]
            try db.execute(cached: IdempotencySQL.insert.sqlite, arguments: arguments)
            if db.changesCount == 1 { return .claimed }
            if let claim = try Self.row(IdempotencySQL.findLocked, scope: scope, key: key, db)?.claim(
                fingerprint: fingerprint, now: now, retention: retention)
            {
                return claim
            }
            // The record there is stale (past retention, or an abandoned claim): this answer replaces it.
            try db.execute(cached: IdempotencySQL.replace.sqlite, arguments: arguments)
            return .claimed
        }
    }

    func deleteExpired(before date: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(cached: "DELETE FROM idempotency_keys WHERE created_at < ?", arguments: [date.sqliteValue])
            return db.changesCount
        }
    }
}
