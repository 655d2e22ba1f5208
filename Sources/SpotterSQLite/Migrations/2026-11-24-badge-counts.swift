import GRDB

extension SQLiteMigrations {
    static let badgeCounts = SQLiteMigration(name: "2026-11-24 badge counts") { db in
        // Few people are ever suspended: the notification rule reads them as one small set per statement.
        try db.execute(sql: "CREATE INDEX users_suspended ON users(id) WHERE suspended_at IS NOT NULL")
        // A badge count walks a person's newest notifications: with the columns its filters read in the
        // index it never visits the table, whose rows for one person lie spread over the whole file.
        try db.execute(
            sql: """
                DROP INDEX notifications_by_recipient;
                CREATE INDEX notifications_by_recipient
                ON notifications(recipient_id, id, read_at, seen_at, archived_at, actor_id, post_id);
                """)
    }
}
