import PostgresNIO

extension PostgresMigrations {
    /// When a comment's author last changed its text: the "edited" a reader sees, as posts have.
    static let commentsEditedAt = PostgresMigration(
        name: "2026-11-26-r2-comments-edited-at",
        statements: ["ALTER TABLE comments ADD COLUMN edited_at TIMESTAMPTZ"]
    )
}
