import GRDB

extension SQLiteMigrations {
    /// The relay's storage (`NostrStore`): events with the columns filters and replacement need, an index of
    /// their single-letter tags, NIP-50 search over content, the keys people linked, one-time values for
    /// linking and signing in, and what each imported event became.
    ///
    /// `seq` is the row's own number: the tag index and the full-text index point at it rather than at the
    /// 64-digit event id. Every index a filter walks ends in `created_at DESC, id`, the order a relay answers
    /// in, so "the newest 20 of these authors" reads about 20 index entries per author and sorts nothing.
    /// At most one version per replaceable address is kept (`nostr_events_by_address`, unique).
    static let nostr = SQLiteMigration(name: "2026-11-28-nostr") { db in
        try db.execute(
            sql: """
                CREATE TABLE nostr_events (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    pubkey TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    kind INTEGER NOT NULL,
                    d_tag TEXT,
                    content TEXT NOT NULL,
                    raw TEXT NOT NULL,
                    author_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    hidden INTEGER NOT NULL DEFAULT 0,
                    received_at REAL NOT NULL
                );
                CREATE INDEX nostr_events_by_pubkey ON nostr_events(pubkey, created_at DESC, id);
                CREATE INDEX nostr_events_by_kind ON nostr_events(kind, created_at DESC, id);
                CREATE INDEX nostr_events_by_time ON nostr_events(created_at DESC, id);
                CREATE UNIQUE INDEX nostr_events_by_address ON nostr_events(pubkey, kind, d_tag)
                    WHERE d_tag IS NOT NULL;
                CREATE TABLE nostr_tags (
                    event_seq INTEGER NOT NULL REFERENCES nostr_events(seq) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    value TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (event_seq, name, value)
                ) WITHOUT ROWID;
                CREATE INDEX nostr_tags_by_value ON nostr_tags(name, value, created_at DESC);
                CREATE VIRTUAL TABLE nostr_events_fts USING fts5(
                    content, content='nostr_events', content_rowid='seq', tokenize='unicode61 remove_diacritics 2');
                CREATE TRIGGER nostr_events_fts_insert AFTER INSERT ON nostr_events BEGIN
                    INSERT INTO nostr_events_fts(rowid, content) VALUES (new.seq, new.content);
                END;
                CREATE TRIGGER nostr_events_fts_delete AFTER DELETE ON nostr_events BEGIN
                    INSERT INTO nostr_events_fts(nostr_events_fts, rowid, content) VALUES ('delete', old.seq, old.content);
                END;
                CREATE TABLE nostr_keys (
                    pubkey TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    linked_at REAL NOT NULL
                );
                CREATE INDEX nostr_keys_by_user ON nostr_keys(user_id);
                CREATE TABLE nostr_challenges (
                    hash TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    expires_at REAL NOT NULL
                );
                CREATE INDEX nostr_challenges_by_expiry ON nostr_challenges(expires_at);
                CREATE TABLE nostr_used_authorizations (
                    event_id TEXT PRIMARY KEY NOT NULL,
                    expires_at REAL NOT NULL
                );
                CREATE INDEX nostr_used_authorizations_by_expiry ON nostr_used_authorizations(expires_at);
                CREATE TABLE nostr_imports (
                    event_id TEXT PRIMARY KEY NOT NULL,
                    target TEXT NOT NULL,
                    target_id TEXT,
                    target_second_id TEXT,
                    imported_at REAL NOT NULL
                );
                CREATE INDEX nostr_imports_by_target ON nostr_imports(target, target_id, target_second_id);
                """)
    }
}
