import PostgresNIO

extension PostgresMigrations {
    /// Who has a live socket on some node; see the SQLite twin.
    static let inApp = PostgresMigration(
        name: "2026-12-04-in-app",
        statements: [
            """
            CREATE TABLE in_app (
                user_id UUID PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                until TIMESTAMPTZ NOT NULL
            )
            """
        ])
}
