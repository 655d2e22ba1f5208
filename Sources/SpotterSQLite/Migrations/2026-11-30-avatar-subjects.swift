import GRDB

extension SQLiteMigrations {
    /// Whose avatar an upload is (`AvatarSubject`): a person's, a group's or a child's. Replacing one avatar
    /// discards the one it replaces and no other, and a fetch is allowed by the subject's rule. The avatars
    /// already in use are people's.
    static let avatarSubjects = SQLiteMigration(name: "2026-11-30-avatar-subjects") { db in
        try db.execute(
            sql: """
                ALTER TABLE media ADD COLUMN avatar_of TEXT;
                UPDATE media SET avatar_of = 'person:' || owner_id
                WHERE purpose = 'avatar' AND attached_at IS NOT NULL AND discarded_at IS NULL;
                CREATE INDEX media_by_avatar_of ON media(avatar_of) WHERE avatar_of IS NOT NULL;
                """)
    }
}
