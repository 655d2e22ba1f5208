import GRDB

extension SQLiteMigrations {
    static let accountsAndTokens = SQLiteMigration(name: "2026-11-22 accounts and tokens") { db in
        // username_key and email_key hold the lowercased value so uniqueness ignores case the same way on
        // SQLite and PostgreSQL (both computed in Swift).
        try db.execute(
            sql: """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    username TEXT NOT NULL,
                    username_key TEXT NOT NULL UNIQUE,
                    email TEXT,
                    email_key TEXT UNIQUE,
                    password_hash TEXT,
                    display_name TEXT NOT NULL,
                    apple_subject TEXT UNIQUE,
                    created_at REAL NOT NULL
                );
                CREATE TABLE tokens (
                    hash TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    family TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
                    created_at REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    used_at REAL,
                    revoked_at REAL
                );
                CREATE INDEX tokens_by_family ON tokens(family);
                CREATE INDEX tokens_by_expiry ON tokens(expires_at);
                """)
    }
}
