import GRDB

extension SQLiteMigrations {
    /// Groups (`GroupStore`): the groups, one row per person who stands in a group (a member with a role,
    /// someone invited by name, someone who asked, someone banned), invitations, and the group a post went to.
    ///
    /// A group post keeps `visibility = 'private'` in `posts` and names its group in `group_id`: every read
    /// written before groups existed then shows it to its author only, and the visibility rule opens it to the
    /// group's members (`SQLitePostSQL.visible`). `seen_up_to` is the newest post of the group a member has
    /// seen, for "new since you last looked" and the top order. `group_members_by_user` answers "is the viewer in this
    /// group" for every group post a read checks; `posts_by_group` serves a group's feed newest first.
    static let groups = SQLiteMigration(name: "2026-11-29-groups") { db in
        try db.execute(
            sql: """
                CREATE TABLE groups (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    name_folded TEXT NOT NULL,
                    description TEXT NOT NULL DEFAULT '',
                    avatar_url TEXT,
                    time_zone TEXT NOT NULL,
                    access TEXT NOT NULL CHECK (access IN ('open', 'request', 'private')),
                    owner_id TEXT NOT NULL REFERENCES users(id),
                    member_count INTEGER NOT NULL DEFAULT 0,
                    created_at REAL NOT NULL,
                    deleted_at REAL
                );
                CREATE INDEX groups_discoverable ON groups(member_count DESC)
                    WHERE deleted_at IS NULL AND access <> 'private';
                CREATE TABLE group_members (
                    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    standing TEXT NOT NULL
                        CHECK (standing IN ('owner', 'admin', 'member', 'invited', 'requested', 'banned')),
                    since REAL NOT NULL,
                    seen_up_to TEXT,
                    PRIMARY KEY (group_id, user_id)
                ) WITHOUT ROWID;
                CREATE INDEX group_members_by_user ON group_members(user_id, group_id, standing);
                CREATE TABLE group_invitations (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
                    invited_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    invitee_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    code_hash TEXT UNIQUE,
                    expires_at REAL,
                    max_uses INTEGER,
                    uses INTEGER NOT NULL DEFAULT 0,
                    revoked_at REAL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX group_invitations_by_group ON group_invitations(group_id, id);
                CREATE INDEX group_invitations_by_invitee ON group_invitations(invitee_id) WHERE invitee_id IS NOT NULL;
                -- Members counted as they come and go, so a list of groups reads no membership rows.
                CREATE TRIGGER group_members_counted_in AFTER INSERT ON group_members
                WHEN NEW.standing IN ('owner', 'admin', 'member') BEGIN
                    UPDATE groups SET member_count = member_count + 1 WHERE id = NEW.group_id;
                END;
                CREATE TRIGGER group_members_counted_out AFTER DELETE ON group_members
                WHEN OLD.standing IN ('owner', 'admin', 'member') BEGIN
                    UPDATE groups SET member_count = member_count - 1 WHERE id = OLD.group_id;
                END;
                CREATE TRIGGER group_members_recounted AFTER UPDATE OF standing ON group_members BEGIN
                    UPDATE groups SET member_count = member_count
                        + (NEW.standing IN ('owner', 'admin', 'member')) - (OLD.standing IN ('owner', 'admin', 'member'))
                    WHERE id = NEW.group_id;
                END;
                ALTER TABLE posts ADD COLUMN group_id TEXT REFERENCES groups(id);
                CREATE INDEX posts_by_group ON posts(group_id, id) WHERE group_id IS NOT NULL;
                """)
    }
}
