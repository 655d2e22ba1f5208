import PostgresNIO

extension PostgresMigrations {
    /// Whose avatar an upload is; see the SQLite twin.
    static let avatarSubjects = PostgresMigration(
        name: "2026-11-30-avatar-subjects",
        statements: [
            "ALTER TABLE media ADD COLUMN avatar_of TEXT",
            """
            UPDATE media SET avatar_of = 'person:' || owner_id::text
            WHERE purpose = 'avatar' AND attached_at IS NOT NULL AND discarded_at IS NULL
            """,
            "CREATE INDEX media_by_avatar_of ON media(avatar_of) WHERE avatar_of IS NOT NULL",
        ])
}
