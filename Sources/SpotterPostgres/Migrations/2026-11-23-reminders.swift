import PostgresNIO

extension PostgresMigrations {
    // The reminder sweep asks who trained in the last days, whatever their posts' visibility.
    static let reminders = PostgresMigration(
        name: "2026-11-23 reminders",
        statements: [
            """
            CREATE INDEX posts_workouts_by_performed ON posts(performed_at, author_id)
            WHERE deleted_at IS NULL AND kind = 'workout'
            """
        ]
    )
}
