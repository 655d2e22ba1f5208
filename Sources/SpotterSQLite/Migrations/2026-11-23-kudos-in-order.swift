import GRDB

extension SQLiteMigrations {
    static let kudosInOrder = SQLiteMigration(name: "2026-11-23 kudos in order") { db in
        // A post's first givers (the kudos preview) without ranking all of its kudos.
        try db.execute(sql: "CREATE INDEX kudos_in_order ON kudos(post_id, created_at, user_id)")
    }
}
