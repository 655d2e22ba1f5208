import PostgresNIO

extension PostgresMigrations {
    /// Password-reset and email-confirmation links: only the SHA-256 of each token, like `tokens`.
    static let accountLinks = PostgresMigration(
        name: "2026-11-26-account-links",
        statements: [
            """
            CREATE TABLE account_links (
                hash TEXT PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                purpose TEXT NOT NULL CHECK (purpose IN ('password_reset', 'email_change')),
                new_email TEXT,
                created_at TIMESTAMPTZ NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL,
                used_at TIMESTAMPTZ
            )
            """,
            "CREATE INDEX account_links_by_user ON account_links(user_id, purpose)",
            "CREATE INDEX account_links_by_expiry ON account_links(expires_at)",
        ]
    )
}
