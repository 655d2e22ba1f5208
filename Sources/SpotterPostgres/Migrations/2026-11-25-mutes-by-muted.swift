import PostgresNIO

extension PostgresMigrations {
    // The realtime hub asks who mutes a post's author for every event about the post.
    static let mutesByMuted = PostgresMigration(
        name: "2026-11-25 mutes by muted",
        statements: ["CREATE INDEX mutes_by_muted ON mutes(muted_id)"]
    )
}
