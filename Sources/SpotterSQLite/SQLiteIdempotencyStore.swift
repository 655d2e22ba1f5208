import Foundation
import GRDB
import SpotterCore
import SpotterSQL

struct SQLiteIdempotencyStore: IdempotencyStore {
    let database: SQLiteDatabase

    func find(scope: String, key: String) async throws -> IdempotencyRow? {
        try await database.lookup { db in try Self.row(IdempotencySQL.find, scope: scope, key: key, db) }
    }

    /// A key's record; both statements select `fingerprint, created_at, status, content_type, body`.
    private static func row(
        _ statement: SQLStatement, scope: String, key: String, _ db: Database
    ) throws -> IdempotencyRow? {
        try db.firstRow(cached: statement.sqlite, arguments: ["scope": scope, "key": key]) { row in
            IdempotencyRow(
                fingerprint: row.text(0), createdAt: Date(sqliteValue: row.real(1)), status: row.integer(2),
                contentType: row.text(3), body: row.blob(4))
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
