import GRDB

extension SQLiteMigrations {
    /// When a comment's author last changed its text: the "edited" a reader sees, as posts have.
    static let commentsEditedAt = SQLiteMigration(name: "2026-11-26-r2-comments-edited-at") { db in
        try db.execute(sql: "ALTER TABLE comments ADD COLUMN edited_at REAL")
    }
}
