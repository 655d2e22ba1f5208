import GRDB

extension SQLiteMigrations {
    static let analytics = SQLiteMigration(name: "2026-11-23 analytics") { db in
        try db.execute(
            sql: """
                CREATE TABLE analytics_events (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    occurred_at REAL NOT NULL,
                    received_at REAL NOT NULL,
                    properties TEXT NOT NULL
                );
                CREATE INDEX analytics_by_time ON analytics_events(occurred_at, user_id);
                CREATE INDEX analytics_by_name ON analytics_events(name, occurred_at);
                """)
    }
}
