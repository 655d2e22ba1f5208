import PostgresNIO

extension PostgresMigrations {
    /// The relay's storage (`NostrStore`); see the SQLite twin for the shape. Hex ids and keys sort as bytes
    /// (`COLLATE "C"`), the order NIP-01's "lowest id first" means. Search goes through the same `simple`
    /// text search as posts.
    static let nostr = PostgresMigration(
        name: "2026-11-28-nostr",
        statements: [
            """
            CREATE TABLE nostr_events (
                seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                id TEXT COLLATE "C" NOT NULL UNIQUE,
                pubkey TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                kind INTEGER NOT NULL,
                d_tag TEXT COLLATE "C",
                content TEXT NOT NULL,
                raw TEXT NOT NULL,
                author_id UUID REFERENCES users(id) ON DELETE CASCADE,
                hidden BOOLEAN NOT NULL DEFAULT false,
                received_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX nostr_events_by_pubkey ON nostr_events (pubkey, created_at DESC, id)",
            "CREATE INDEX nostr_events_by_kind ON nostr_events (kind, created_at DESC, id)",
            "CREATE INDEX nostr_events_by_time ON nostr_events (created_at DESC, id)",
            """
            CREATE UNIQUE INDEX nostr_events_by_address ON nostr_events (pubkey, kind, d_tag) WHERE d_tag IS NOT NULL
            """,
            "CREATE INDEX nostr_events_search ON nostr_events USING gin (to_tsvector('simple', content))",
            """
            CREATE TABLE nostr_tags (
                event_seq BIGINT NOT NULL REFERENCES nostr_events(seq) ON DELETE CASCADE,
                name TEXT COLLATE "C" NOT NULL,
                value TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (event_seq, name, value)
            )
            """,
            "CREATE INDEX nostr_tags_by_value ON nostr_tags (name, value, created_at DESC)",
            """
            CREATE TABLE nostr_keys (
                pubkey TEXT COLLATE "C" PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                linked_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX nostr_keys_by_user ON nostr_keys (user_id)",
            """
            CREATE TABLE nostr_challenges (
                hash TEXT PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                expires_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX nostr_challenges_by_expiry ON nostr_challenges (expires_at)",
            """
            CREATE TABLE nostr_used_authorizations (
                event_id TEXT COLLATE "C" PRIMARY KEY,
                expires_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX nostr_used_authorizations_by_expiry ON nostr_used_authorizations (expires_at)",
            """
            CREATE TABLE nostr_imports (
                event_id TEXT COLLATE "C" PRIMARY KEY,
                target TEXT NOT NULL,
                target_id UUID,
                target_second_id UUID,
                imported_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX nostr_imports_by_target ON nostr_imports (target, target_id, target_second_id)",
        ]
    )
}
