import GRDB

extension SQLiteMigrations {
    /// Photos: each upload is a row that is also its processing job (leased, retried), posts keep their photos'
    /// summaries in order, and the key media URLs are signed with lives where every node finds it.
    static let media = SQLiteMigration(name: "2026-11-27-media") { db in
        try db.execute(
            sql: """
                CREATE TABLE media (
                    id TEXT PRIMARY KEY,
                    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    purpose TEXT NOT NULL CHECK (purpose IN ('post', 'avatar')),
                    status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'ready', 'failed')),
                    content_type TEXT NOT NULL,
                    byte_size INTEGER NOT NULL,
                    reason TEXT,
                    width INTEGER,
                    height INTEGER,
                    blurhash TEXT,
                    description TEXT,
                    focus_x REAL,
                    focus_y REAL,
                    post_id TEXT,
                    position INTEGER,
                    attached_at REAL,
                    discarded_at REAL,
                    created_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    run_at REAL,
                    lease_until REAL
                )
                """)
        try db.execute(sql: "CREATE INDEX media_due ON media(run_at) WHERE status = 'processing'")
        try db.execute(sql: "CREATE INDEX media_by_post ON media(post_id) WHERE post_id IS NOT NULL")
        try db.execute(sql: "CREATE INDEX media_unattached ON media(owner_id, created_at) WHERE attached_at IS NULL")
        try db.execute(sql: "CREATE INDEX media_discarded ON media(discarded_at) WHERE discarded_at IS NOT NULL")
        try db.execute(sql: "CREATE INDEX media_stale ON media(created_at) WHERE attached_at IS NULL")
        try db.execute(sql: "ALTER TABLE posts ADD COLUMN media TEXT NOT NULL DEFAULT '[]'")
        try db.execute(
            sql: "CREATE TABLE server_keys (name TEXT PRIMARY KEY, key BLOB NOT NULL, created_at REAL NOT NULL)")
    }
}
