import PostgresNIO

extension PostgresMigrations {
    /// End-to-end encrypted groups (`E2EStore`); see the SQLite twin.
    static let e2e = PostgresMigration(
        name: "2026-12-01-e2e",
        statements: [
            "ALTER TABLE groups ADD COLUMN encrypted BOOLEAN NOT NULL DEFAULT false",
            "ALTER TABLE posts ADD COLUMN sealed TEXT",
            "ALTER TABLE comments ADD COLUMN sealed TEXT",
            """
            CREATE TABLE e2e_device_statements (
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                body TEXT NOT NULL,
                signature TEXT NOT NULL,
                signer UUID NOT NULL,
                hash TEXT NOT NULL,
                PRIMARY KEY (user_id, seq)
            )
            """,
            """
            CREATE TABLE e2e_devices (
                id UUID PRIMARY KEY,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                hpke_public TEXT NOT NULL,
                signing_public TEXT NOT NULL,
                recovery BOOLEAN NOT NULL,
                added_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX e2e_devices_by_user ON e2e_devices(user_id)",
            """
            CREATE TABLE e2e_recovery_kits (
                user_id UUID PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                kit TEXT NOT NULL,
                updated_at TIMESTAMPTZ NOT NULL
            )
            """,
            """
            CREATE TABLE e2e_groups (
                group_id UUID PRIMARY KEY REFERENCES groups(id) ON DELETE CASCADE,
                history BOOLEAN NOT NULL,
                epoch INTEGER,
                chain_length INTEGER NOT NULL,
                head TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE e2e_group_statements (
                group_id UUID NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                body TEXT NOT NULL,
                signature TEXT NOT NULL,
                signer UUID NOT NULL,
                hash TEXT NOT NULL,
                PRIMARY KEY (group_id, seq)
            )
            """,
            """
            CREATE TABLE e2e_chain_members (
                group_id UUID NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
                PRIMARY KEY (group_id, user_id)
            )
            """,
            """
            CREATE TABLE e2e_wrapped_keys (
                group_id UUID NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                device_id UUID NOT NULL REFERENCES e2e_devices(id) ON DELETE CASCADE,
                epoch INTEGER NOT NULL,
                key TEXT NOT NULL,
                PRIMARY KEY (group_id, device_id, epoch)
            )
            """,
            "CREATE INDEX e2e_wrapped_keys_by_epoch ON e2e_wrapped_keys(group_id, epoch)",
            """
            CREATE TABLE e2e_blobs (
                id UUID PRIMARY KEY,
                group_id UUID NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                owner_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                byte_size INTEGER NOT NULL,
                ready BOOLEAN NOT NULL DEFAULT false,
                post_id UUID,
                created_at TIMESTAMPTZ NOT NULL,
                discarded_at TIMESTAMPTZ
            )
            """,
            "CREATE INDEX e2e_blobs_by_post ON e2e_blobs(post_id) WHERE post_id IS NOT NULL",
            """
            CREATE INDEX e2e_blobs_sweepable ON e2e_blobs(created_at)
                WHERE post_id IS NULL OR discarded_at IS NOT NULL
            """,
        ])
}
