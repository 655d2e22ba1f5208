import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresAnalyticsStore: AnalyticsStore {
    let database: PostgresDatabase
    let logger: Logger

    func insert(_ events: [AnalyticsRecord]) async throws {
        try await database.withTransaction(logger: logger) { connection in
            for record in events {
                try await connection.query(
                    PostgresQuery(
                        AnalyticsSQL.insert.postgres,
                        [
                            "user": PostgresBind(record.userID.rawValue), "name": PostgresBind(record.event.name),
                            "occurredAt": PostgresBind(record.event.occurredAt),
                            "receivedAt": PostgresBind(record.receivedAt),
                            "properties": PostgresBind(StoredJSON.encode(record.event.properties)),
                        ]), logger: logger)
            }
        }
    }

    func dailyActiveUsers(since: Date) async throws -> [DailyCount] {
        let rows = try await database.query(
            """
            SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, COUNT(DISTINCT user_id)::BIGINT
            FROM analytics_events WHERE occurred_at >= \(since) GROUP BY day ORDER BY day
            """, logger: logger)
        var counts: [DailyCount] = []
        for try await (day, count) in rows.decode((String, Int).self) {
            counts.append(DailyCount(day: day, count: count))
        }
        return counts
    }

    func topEvents(since: Date, limit: Int) async throws -> [NameCount] {
        let rows = try await database.query(
            PostgresQuery(
                AnalyticsSQL.topEvents.postgres, ["since": PostgresBind(since), "limit": PostgresBind(limit)]),
            logger: logger)
        var counts: [NameCount] = []
        for try await (name, count) in rows.decode((String, Int).self) {
            counts.append(NameCount(name: name, count: count))
        }
        return counts
    }
}
