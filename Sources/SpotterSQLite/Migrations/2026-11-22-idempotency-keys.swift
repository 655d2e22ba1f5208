import GRDB

extension SQLiteMigrations {
    static let idempotencyKeys = SQLiteMigration(name: "2026-11-22 idempotency keys") { db in
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
}
