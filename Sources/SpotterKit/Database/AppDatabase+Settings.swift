import Foundation
import GRDB

/// Small facts about this install that outlive a session: its analytics id, and whether the person opted out
/// of analytics.
extension AppDatabase {
    static func registerSettingsMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("client settings") { db in
            try db.execute(sql: "CREATE TABLE client_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        }
    }

    /// This install's random analytics id, made the first time it is asked for: it tells one device's events
    /// apart without saying whose they are, and a reinstall (a new database) gets a new one.
    func installID() async throws -> String {
        try await writer.write { db in
            if let id = try String.fetchOne(db, sql: "SELECT value FROM client_settings WHERE key = 'install_id'") {
                return id
            }
            let id = UUID().uuidString.lowercased()
            try db.execute(sql: "INSERT INTO client_settings (key, value) VALUES ('install_id', ?)", arguments: [id])
            return id
        }
    }

    func analyticsOptedOut() async throws -> Bool {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM client_settings WHERE key = 'analytics_opt_out'") == "1"
        }
    }

    /// Opting out also drops the events still waiting: nothing recorded before the choice goes out after it.
    func setAnalyticsOptedOut(_ optedOut: Bool) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO client_settings (key, value) VALUES ('analytics_opt_out', ?)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """,
                arguments: [optedOut ? "1" : "0"])
            if optedOut {
                try db.execute(sql: "DELETE FROM events")
                try db.execute(sql: "DELETE FROM batches")
            }
        }
    }
}
