import GRDB

extension SQLiteMigrations {
    static let mutesByMuted = SQLiteMigration(name: "2026-11-25 mutes by muted") { db in
        // The realtime hub asks who mutes a post's author for every event about the post.
        try db.execute(sql: "CREATE INDEX mutes_by_muted ON mutes(muted_id)")
    }
}
