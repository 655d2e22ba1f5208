import PostgresNIO

extension PostgresMigrations {
    /// Photos: each upload is a row that is also its processing job (leased, retried), posts keep their photos'
    /// summaries in order, and the key media URLs are signed with lives where every node finds it.
    static let media = PostgresMigration(
        name: "2026-11-27-media",
        statements: [
            """
            CREATE TABLE media (
                id UUID PRIMARY KEY,
                owner_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                purpose TEXT NOT NULL CHECK (purpose IN ('post', 'avatar')),
                status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'ready', 'failed')),
                content_type TEXT NOT NULL,
                byte_size BIGINT NOT NULL,
                reason TEXT,
                width INTEGER,
                height INTEGER,
                blurhash TEXT,
                description TEXT,
                focus_x DOUBLE PRECISION,
                focus_y DOUBLE PRECISION,
                post_id UUID,
                position INTEGER,
                attached_at TIMESTAMPTZ,
                discarded_at TIMESTAMPTZ,
                created_at TIMESTAMPTZ NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                run_at TIMESTAMPTZ,
                lease_until TIMESTAMPTZ
            )
            """,
            "CREATE INDEX media_due ON media(run_at) WHERE status = 'processing'",
            "CREATE INDEX media_by_post ON media(post_id) WHERE post_id IS NOT NULL",
            "CREATE INDEX media_unattached ON media(owner_id, created_at) WHERE attached_at IS NULL",
            "CREATE INDEX media_discarded ON media(discarded_at) WHERE discarded_at IS NOT NULL",
            "CREATE INDEX media_stale ON media(created_at) WHERE attached_at IS NULL",
            "ALTER TABLE posts ADD COLUMN media TEXT NOT NULL DEFAULT '[]'",
            "CREATE TABLE server_keys (name TEXT PRIMARY KEY, key BYTEA NOT NULL, created_at TIMESTAMPTZ NOT NULL)",
        ]
    )
}
