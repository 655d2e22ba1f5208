import Foundation
import Logging
import PostgresNIO
import SpotterCore

struct PostgresIdempotencyStore: IdempotencyStore {
    let database: PostgresDatabase
    let logger: Logger

    func find(scope: String, key: String) async throws -> IdempotencyRow? {
        let rows = try await database.query(
            """
            SELECT fingerprint, created_at, status, content_type, body FROM idempotency_keys
            WHERE scope = \(scope) AND key = \(key)
            """, logger: logger)
        return try await Self.first(of: rows)
    }

    func begin(
        scope: String, key: String, fingerprint: String, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    {
        // Several nodes may race for one key: the row lock taken by SELECT … FOR UPDATE (or the unique
        // insert, which waits for a concurrent insert of the same key to commit or roll back) decides.
        try await database.withTransaction(logger: logger) { connection in
            if let existing = try await Self.record(scope: scope, key: key, connection, logger) {
                if let claim = existing.claim(fingerprint: fingerprint, now: now, retention: retention) { return claim }
                try await connection.query(
                    "DELETE FROM idempotency_keys WHERE scope = \(scope) AND key = \(key)", logger: logger)
            }
            let inserted = try await connection.query(
                """
                INSERT INTO idempotency_keys (scope, key, fingerprint, created_at)
                VALUES (\(scope), \(key), \(fingerprint), \(now))
                ON CONFLICT (scope, key) DO NOTHING RETURNING key
                """, logger: logger)
            for try await _ in inserted { return IdempotencyClaim.claimed }
            // Another request inserted the same key after our SELECT. The insert waited for that request's
            // transaction to end: inside a unit of work the record is now committed with its response (replay
            // it, or a mismatch); a claim made outside one is still in progress.
            let winner = try await Self.record(scope: scope, key: key, connection, logger)
            return winner?.claim(fingerprint: fingerprint, now: now, retention: retention) ?? .inProgress
        }
    }

    /// The key's record, locked for the rest of the transaction.
    private static func record(
        scope: String, key: String, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> IdempotencyRow? {
        let rows = try await connection.query(
            """
            SELECT fingerprint, created_at, status, content_type, body FROM idempotency_keys
            WHERE scope = \(scope) AND key = \(key) FOR UPDATE
            """, logger: logger)
        return try await Self.first(of: rows)
    }

    func complete(scope: String, key: String, response: StoredResponse) async throws {
        try await database.query(
            """
            UPDATE idempotency_keys
            SET status = \(response.status), content_type = \(response.contentType), body = \(response.body)
            WHERE scope = \(scope) AND key = \(key)
            """, logger: logger)
    }

    func deleteExpired(before date: Date) async throws -> Int {
        let rows = try await database.query(
            "DELETE FROM idempotency_keys WHERE created_at < \(date) RETURNING key", logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    /// The one record a key's SELECT finds, if any.
    private static func first(of rows: PostgresRowSequence) async throws -> IdempotencyRow? {
        var existing: IdempotencyRow?
        for try await (stored, createdAt, status, contentType, body) in rows.decode(
            (String, Date, Int?, String?, Data?).self)
        {
            existing = IdempotencyRow(
                fingerprint: stored, createdAt: createdAt, status: status, contentType: contentType, body: body)
        }
        return existing
    }
}
