import GRDB

extension SQLiteMigrations {
    /// Password-reset and email-confirmation links: only the SHA-256 of each token, like `tokens`.
    static let accountLinks = SQLiteMigration(name: "2026-11-26-account-links") { db in
        try db.execute(
            sql: """
                CREATE TABLE account_links (
                    hash TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    purpose TEXT NOT NULL CHECK (purpose IN ('password_reset', 'email_change')),
                    new_email TEXT,
                    created_at REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    used_at REAL
                );
                CREATE INDEX account_links_by_user ON account_links(user_id, purpose);
                CREATE INDEX account_links_by_expiry ON account_links(expires_at);
                """)
    }
}
