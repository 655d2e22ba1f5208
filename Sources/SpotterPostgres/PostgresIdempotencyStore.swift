import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterSQL

struct PostgresIdempotencyStore: IdempotencyStore {
    let database: PostgresDatabase
    let logger: Logger

    func find(scope: String, key: String) async throws -> IdempotencyRow? {
        let rows = try await database.query(
            PostgresQuery(IdempotencySQL.find.postgres, ["scope": PostgresBind(scope), "key": PostgresBind(key)]),
            logger: logger)
        return try await Self.first(of: rows)
    }

    func record(
        scope: String, key: String, fingerprint: String, response: StoredResponse, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    {
        // Several nodes may race for one key. The insert waits on the key's unique index for a concurrent
        // insert of it to commit or roll back; a record found there is locked (FOR UPDATE) before it is judged,
        // so of two nodes that find it stale only one replaces it.
        let key = ["scope": PostgresBind(scope), "key": PostgresBind(key)]
        let record = key.merging([
            "fingerprint": PostgresBind(fingerprint), "now": PostgresBind(now), "status": PostgresBind(response.status),
            "content_type": PostgresBind(response.contentType), "body": PostgresBind(response.body),
        ]) { $1 }
        return try await database.withTransaction(logger: logger) { connection in
            let inserted = try await connection.query(
                PostgresQuery(IdempotencySQL.insert.postgres, record), logger: logger)
            var claimed = false
            for try await _ in inserted { claimed = true }
            if claimed { return .claimed }
            let found = try await Self.first(
                of: connection.query(PostgresQuery(IdempotencySQL.findLocked.postgres, key), logger: logger))
            if let claim = found?.claim(fingerprint: fingerprint, now: now, retention: retention) { return claim }
            // The record there is stale (past retention, or an abandoned claim): this answer replaces it.
            try await connection.query(PostgresQuery(IdempotencySQL.replace.postgres, record), logger: logger)
            return .claimed
        }
    }

    func deleteExpired(before date: Date) async throws -> Int {
        let rows = try await database.query(
            "DELETE FROM idempotency_keys WHERE created_at < \(date) RETURNING key", logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    /// The one record a key's SELECT finds, if any.
    private static func first(of rows: PostgresRows) async throws -> IdempotencyRow? {
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
