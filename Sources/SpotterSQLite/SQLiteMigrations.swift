import GRDB

/// The SQLite schema, one registered migration per change, never edited once released.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("2026-11-22 accounts and tokens") { db in
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
        migrator.registerMigration("2026-11-22 idempotency keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_keys (
                        scope TEXT NOT NULL,
                        key TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        status INTEGER,
                        content_type TEXT,
                        body BLOB,
                        PRIMARY KEY (scope, key)
                    );
                    CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);
                    """)
        }
        return migrator
    }
}
