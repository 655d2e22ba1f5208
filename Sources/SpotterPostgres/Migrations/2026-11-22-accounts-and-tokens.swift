import PostgresNIO

extension PostgresMigrations {
    static let accountsAndTokens = PostgresMigration(
        name: "2026-11-22 accounts and tokens",
        statements: [
            """
            CREATE TABLE users (
                id UUID PRIMARY KEY,
                username TEXT NOT NULL,
                username_key TEXT NOT NULL CONSTRAINT users_username_key_unique UNIQUE,
                email TEXT,
                email_key TEXT CONSTRAINT users_email_key_unique UNIQUE,
                password_hash TEXT,
                display_name TEXT NOT NULL,
                apple_subject TEXT CONSTRAINT users_apple_subject_unique UNIQUE,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            """
            CREATE TABLE tokens (
                hash TEXT PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                family UUID NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
                created_at TIMESTAMPTZ NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL,
                used_at TIMESTAMPTZ,
                revoked_at TIMESTAMPTZ
            )
            """,
            "CREATE INDEX tokens_by_family ON tokens(family)",
            "CREATE INDEX tokens_by_expiry ON tokens(expires_at)",
        ]
    )
}
