import Foundation
import Logging
import PostgresNIO
import SpotterCore

struct PostgresIdempotencyStore: IdempotencyStore {
    let client: PostgresClient
    let logger: Logger

    func begin(
        scope: String, key: String, fingerprint: String, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    {
        // Several nodes may race for one key: the row lock taken by SELECT … FOR UPDATE (or the unique
        // insert) decides, inside one transaction.
        try await client.withTransaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                SELECT fingerprint, created_at, status, content_type, body FROM idempotency_keys
                WHERE scope = \(scope) AND key = \(key) FOR UPDATE
                """, logger: logger)
            var existing: IdempotencyRow?
            for try await (stored, createdAt, status, contentType, body) in rows.decode(
                (String, Date, Int?, String?, Data?).self)
            {
                existing = IdempotencyRow(
                    fingerprint: stored, createdAt: createdAt, status: status, contentType: contentType, body: body)
            }
            if let existing {
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
            // Another node inserted the same key between our SELECT and INSERT; it is now working on it.
            return IdempotencyClaim.inProgress
        }
    }

    func complete(scope: String, key: String, response: StoredResponse) async throws {
        try await client.query(
            """
            UPDATE idempotency_keys
            SET status = \(response.status), content_type = \(response.contentType), body = \(response.body)
            WHERE scope = \(scope) AND key = \(key)
            """, logger: logger)
    }

    func release(scope: String, key: String) async throws {
        try await client.query(
            "DELETE FROM idempotency_keys WHERE scope = \(scope) AND key = \(key) AND status IS NULL", logger: logger)
    }

    func deleteExpired(before date: Date) async throws -> Int {
        let rows = try await client.query(
            "DELETE FROM idempotency_keys WHERE created_at < \(date) RETURNING key", logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }
}
