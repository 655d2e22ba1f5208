import Foundation
import GRDB
import SpotterCore

struct SQLiteIdempotencyStore: IdempotencyStore {
    let database: SQLiteDatabase

    func find(scope: String, key: String) async throws -> IdempotencyRow? {
        try await database.lookup { db in try Self.row(scope: scope, key: key, db) }
    }

    private static func row(scope: String, key: String, _ db: Database) throws -> IdempotencyRow? {
        try Row.fetchOne(
            cached: db,
            sql:
                "SELECT fingerprint, created_at, status, content_type, body FROM idempotency_keys WHERE scope = ? AND key = ?",
            arguments: [scope, key]
        ).map { row in
            IdempotencyRow(
                fingerprint: row["fingerprint"], createdAt: Date(sqliteValue: row["created_at"]),
                status: row["status"], contentType: row["content_type"], body: row["body"])
        }
    }

    func begin(
        scope: String, key: String, fingerprint: String, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    {
        // One write transaction: SQLite's single writer makes the look-then-insert atomic.
        try await database.write { db in
            if let state = try Self.row(scope: scope, key: key, db) {
                switch state.claim(fingerprint: fingerprint, now: now, retention: retention) {
                case .some(let claim):
                    return claim
                case .none:
                    try db.execute(
                        cached: "DELETE FROM idempotency_keys WHERE scope = ? AND key = ?", arguments: [scope, key])
                }
            }
            try db.execute(
                cached: "INSERT INTO idempotency_keys (scope, key, fingerprint, created_at) VALUES (?, ?, ?, ?)",
                arguments: [scope, key, fingerprint, now.sqliteValue])
            return .claimed
        }
    }

    func complete(scope: String, key: String, response: StoredResponse) async throws {
        try await database.write { db in
            try db.execute(
                cached:
                    "UPDATE idempotency_keys SET status = ?, content_type = ?, body = ? WHERE scope = ? AND key = ?",
                arguments: [response.status, response.contentType, response.body, scope, key])
        }
    }

    func deleteExpired(before date: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(cached: "DELETE FROM idempotency_keys WHERE created_at < ?", arguments: [date.sqliteValue])
            return db.changesCount
        }
    }
}
