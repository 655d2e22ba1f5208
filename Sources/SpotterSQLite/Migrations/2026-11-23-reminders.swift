import GRDB

extension SQLiteMigrations {
    static let reminders = SQLiteMigration(name: "2026-11-23 reminders") { db in
        // The reminder sweep asks who trained in the last days, whatever their posts' visibility.
        try db.execute(
            sql: """
                CREATE INDEX posts_workouts_by_performed ON posts(performed_at, author_id)
                WHERE deleted_at IS NULL AND kind = 'workout';
                """)
    }
}
