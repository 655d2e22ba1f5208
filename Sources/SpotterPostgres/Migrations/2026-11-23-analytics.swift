import PostgresNIO

extension PostgresMigrations {
    static let analytics = PostgresMigration(
        name: "2026-11-23 analytics",
        statements: [
            """
            CREATE TABLE analytics_events (
                id BIGSERIAL PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                occurred_at TIMESTAMPTZ NOT NULL,
                received_at TIMESTAMPTZ NOT NULL,
                properties TEXT NOT NULL
            )
            """,
            "CREATE INDEX analytics_by_time ON analytics_events(occurred_at, user_id)",
            "CREATE INDEX analytics_by_name ON analytics_events(name, occurred_at)",
        ]
    )
}
