import PostgresNIO

extension PostgresMigrations {
    static let idempotencyKeys = PostgresMigration(
        name: "2026-11-22 idempotency keys",
        statements: [
            """
            CREATE TABLE idempotency_keys (
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                status INTEGER,
                content_type TEXT,
                body BYTEA,
                PRIMARY KEY (scope, key)
            )
            """,
            "CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at)",
        ]
    )
}
