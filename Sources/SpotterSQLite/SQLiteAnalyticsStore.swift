import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteAnalyticsStore: AnalyticsStore {
    let database: SQLiteDatabase

    func insert(_ events: [AnalyticsRecord]) async throws {
        try await database.write { db in
            for record in events {
                try db.execute(
                    cached: AnalyticsSQL.insert.sqlite,
                    arguments: [
                        "user": record.userID.description, "name": record.event.name,
                        "occurredAt": record.event.occurredAt.sqliteValue, "receivedAt": record.receivedAt.sqliteValue,
                        "properties": StoredJSON.encode(record.event.properties),
                    ])
            }
        }
    }

    func dailyActiveUsers(since: Date) async throws -> [DailyCount] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT date(occurred_at, 'unixepoch'), COUNT(DISTINCT user_id) FROM analytics_events
                    WHERE occurred_at >= ? GROUP BY 1 ORDER BY 1
                    """, arguments: [since.sqliteValue]
            )
            .map { DailyCount(day: $0[0], count: $0[1]) }
        }
    }

    func topEvents(since: Date, limit: Int) async throws -> [NameCount] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: AnalyticsSQL.topEvents.sqlite, arguments: ["since": since.sqliteValue, "limit": limit]
            )
            .map { NameCount(name: $0[0], count: $0[1]) }
        }
    }
}
