import GRDB

extension SQLiteMigrations {
    /// End-to-end encrypted groups (`E2EStore`, docs/encryption.md). The server keeps what devices sign and
    /// seal, as sent, and a few facts it derives from the chains it has verified, so a request needs no chain
    /// replay: each person's devices (`e2e_devices`), each group's epoch and chain head (`e2e_groups`) and whom
    /// the chain counts as members (`e2e_chain_members`). Posts and comments keep their sealed content in a
    /// column of their own; encrypted photos are blobs of their own (`e2e_blobs`): the server cannot process them.
    static let e2e = SQLiteMigration(name: "2026-12-01-e2e") { db in
        try db.execute(
            sql: """
                ALTER TABLE groups ADD COLUMN encrypted INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE posts ADD COLUMN sealed TEXT;
                ALTER TABLE comments ADD COLUMN sealed TEXT;
                CREATE TABLE e2e_device_statements (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    body TEXT NOT NULL,
                    signature TEXT NOT NULL,
                    signer TEXT NOT NULL,
                    hash TEXT NOT NULL,
                    PRIMARY KEY (user_id, seq)
                ) WITHOUT ROWID;
                CREATE TABLE e2e_devices (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    hpke_public TEXT NOT NULL,
                    signing_public TEXT NOT NULL,
                    recovery INTEGER NOT NULL,
                    added_at INTEGER NOT NULL,
                    revoked_at INTEGER
                );
                CREATE INDEX e2e_devices_by_user ON e2e_devices(user_id);
                CREATE TABLE e2e_recovery_kits (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    kit TEXT NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE TABLE e2e_groups (
                    group_id TEXT PRIMARY KEY REFERENCES groups(id) ON DELETE CASCADE,
                    history INTEGER NOT NULL,
                    epoch INTEGER,
                    chain_length INTEGER NOT NULL,
                    head TEXT NOT NULL
                );
                CREATE TABLE e2e_group_statements (
                    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    body TEXT NOT NULL,
                    signature TEXT NOT NULL,
                    signer TEXT NOT NULL,
                    hash TEXT NOT NULL,
                    PRIMARY KEY (group_id, seq)
                ) WITHOUT ROWID;
                CREATE TABLE e2e_chain_members (
                    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
                    PRIMARY KEY (group_id, user_id)
                ) WITHOUT ROWID;
                CREATE TABLE e2e_wrapped_keys (
                    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL REFERENCES e2e_devices(id) ON DELETE CASCADE,
                    epoch INTEGER NOT NULL,
                    key TEXT NOT NULL,
                    PRIMARY KEY (group_id, device_id, epoch)
                ) WITHOUT ROWID;
                CREATE INDEX e2e_wrapped_keys_by_epoch ON e2e_wrapped_keys(group_id, epoch);
                CREATE TABLE e2e_blobs (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    byte_size INTEGER NOT NULL,
                    ready INTEGER NOT NULL DEFAULT 0,
                    post_id TEXT,
                    created_at REAL NOT NULL,
                    discarded_at REAL
                );
                CREATE INDEX e2e_blobs_by_post ON e2e_blobs(post_id) WHERE post_id IS NOT NULL;
                CREATE INDEX e2e_blobs_sweepable ON e2e_blobs(created_at) WHERE post_id IS NULL OR discarded_at IS NOT NULL;
                """)
    }
}
