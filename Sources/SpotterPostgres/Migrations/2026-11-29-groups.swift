import PostgresNIO

extension PostgresMigrations {
    /// Groups (`GroupStore`); see the SQLite twin for the design. A group post keeps `visibility = 'private'`
    /// and names its group in `group_id`, so a read that knew nothing of groups shows it to its author only.
    static let groups = PostgresMigration(
        name: "2026-11-29-groups",
        statements: [
            """
            CREATE TABLE groups (
                id UUID PRIMARY KEY,
                name TEXT NOT NULL,
                name_folded TEXT NOT NULL,
                description TEXT NOT NULL DEFAULT '',
                avatar_url TEXT,
                time_zone TEXT NOT NULL,
                access TEXT NOT NULL CHECK (access IN ('open', 'request', 'private')),
                owner_id UUID NOT NULL REFERENCES users(id),
                member_count INTEGER NOT NULL DEFAULT 0,
                created_at TIMESTAMPTZ NOT NULL,
                deleted_at TIMESTAMPTZ
            )
            """,
            """
            CREATE INDEX groups_discoverable ON groups(member_count DESC)
                WHERE deleted_at IS NULL AND access <> 'private'
            """,
            """
            CREATE TABLE group_members (
                group_id UUID NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                standing TEXT NOT NULL
                    CHECK (standing IN ('owner', 'admin', 'member', 'invited', 'requested', 'banned')),
                since TIMESTAMPTZ NOT NULL,
                seen_up_to UUID,
                PRIMARY KEY (group_id, user_id)
            )
            """,
            "CREATE INDEX group_members_by_user ON group_members(user_id, group_id, standing)",
            """
            CREATE TABLE group_invitations (
                id UUID PRIMARY KEY,
                group_id UUID NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                invited_by UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                invitee_id UUID REFERENCES users(id) ON DELETE CASCADE,
                code_hash TEXT UNIQUE,
                expires_at TIMESTAMPTZ,
                max_uses INTEGER,
                uses INTEGER NOT NULL DEFAULT 0,
                revoked_at TIMESTAMPTZ,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX group_invitations_by_group ON group_invitations(group_id, id)",
            "CREATE INDEX group_invitations_by_invitee ON group_invitations(invitee_id) WHERE invitee_id IS NOT NULL",
            // Members counted as they come and go, so a list of groups reads no membership rows.
            """
            CREATE FUNCTION group_members_counted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.standing IN ('owner', 'admin', 'member') THEN
                    UPDATE groups SET member_count = member_count + 1 WHERE id = NEW.group_id;
                END IF;
                IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.standing IN ('owner', 'admin', 'member') THEN
                    UPDATE groups SET member_count = member_count - 1 WHERE id = OLD.group_id;
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER group_members_counted AFTER INSERT OR DELETE OR UPDATE OF standing ON group_members
            FOR EACH ROW EXECUTE FUNCTION group_members_counted()
            """,
            "ALTER TABLE posts ADD COLUMN group_id UUID REFERENCES groups(id)",
            "CREATE INDEX posts_by_group ON posts(group_id, id) WHERE group_id IS NOT NULL",
        ])
}
