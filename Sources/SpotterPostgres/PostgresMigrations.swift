import Logging
import PostgresNIO

/// The PostgreSQL schema, one migration per change, never edited once released. Each migration is a list of
/// statements (the extended protocol takes one statement per query).
enum PostgresMigrations {
    static let all: [(name: String, statements: [PostgresQuery])] = [
        (
            "2026-11-22 accounts and tokens",
            [
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
        ),
        (
            "2026-11-22 idempotency keys",
            [
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
        ),
    ]

    /// Applies what is missing, in one transaction under an advisory lock, so nodes starting together
    /// migrate once.
    static func run(on client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(74210001)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS spotter_migrations (
                    name TEXT PRIMARY KEY,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM spotter_migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            for migration in all where !applied.contains(migration.name) {
                logger.info("applying migration", metadata: ["migration": "\(migration.name)"])
                for statement in migration.statements {
                    try await connection.query(statement, logger: logger)
                }
                try await connection.query(
                    "INSERT INTO spotter_migrations (name) VALUES (\(migration.name))", logger: logger)
            }
        }
    }
}
