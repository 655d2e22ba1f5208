import Foundation
import GRDB
import SpotterModels

/// Analytics events waiting to be sent, and the batch being sent.
extension AppDatabase {
    /// Keeps an event; returns how many wait.
    func add(_ event: AnalyticsEvent) async throws -> Int {
        let json = String(decoding: try SpotterClient.encoder.encode(event), as: UTF8.self)
        return try await writer.write { db in
            try db.execute(sql: "INSERT INTO events (json) VALUES (?)", arguments: [json])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0
        }
    }

    func waitingEvents() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0 }
    }

    /// The oldest events (up to 100) and the key of their batch: the same batch and key as a failed try's,
    /// so the server can tell a resend from new events.
    func nextAnalyticsBatch() async throws -> (key: String, lastID: Int64, events: [AnalyticsEvent]) {
        try await writer.write { db in
            var key = SpotterClient.newKey()
            var limit: Int64 = .max
            if let row = try Row.fetchOne(db, sql: "SELECT key, last_event FROM batches") {
                key = row[0]
                limit = row[1]
            }
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, json FROM events WHERE id <= ? ORDER BY id LIMIT 100", arguments: [limit])
            let events = rows.compactMap { row in try? Self.decode(AnalyticsEvent.self, row[1] as String) }
            try db.execute(sql: "DELETE FROM batches")
            guard let lastID = rows.last.map({ $0[0] as Int64 }) else { return (key, 0, []) }  // nothing waits
            try db.execute(sql: "INSERT INTO batches (key, last_event) VALUES (?, ?)", arguments: [key, lastID])
            return (key, lastID, events)
        }
    }

    /// The batch up to `lastID` is done with (sent, or refused for good).
    func deleteEvents(through lastID: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM events WHERE id <= ?", arguments: [lastID])
            try db.execute(sql: "DELETE FROM batches")
        }
    }
}
