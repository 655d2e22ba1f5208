import GRDB

extension SQLiteMigrations {
    /// Who has a live socket on some node, and until when a node vouches for it (`InAppPresence`): the
    /// delivery runner skips a push while its recipient is in the app, where the live socket shows it.
    static let inApp = SQLiteMigration(name: "2026-12-04-in-app") { db in
        try db.execute(
            sql: """
                CREATE TABLE in_app (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    until REAL NOT NULL
                ) WITHOUT ROWID;
                """)
    }
}
