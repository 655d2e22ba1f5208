import GRDB

extension SQLiteMigrations {
    static let kudosCounted = SQLiteMigration(name: "2026-11-24 kudos counted") { db in
        // Counting a post's kudos at every read cost one giver lookup and two block probes per kudos, so a
        // popular post made every page it was on slower. Triggers keep the count, so no write path
        // (a kudos, one taken back, a cascade) can leave it behind, and a read subtracts only the kudos of
        // the few people it must hide (`SQLitePostSQL.kudosCount`). A narrow table of its own rather than
        // a column of posts: a kudos then rewrites a small row, not the post's. No foreign key: kudos has
        // one to the post already, and checking it again would cost every kudos a lookup.
        try db.execute(
            sql: """
                CREATE TABLE post_counts (
                    post_id TEXT PRIMARY KEY NOT NULL,
                    kudos INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO post_counts (post_id, kudos) SELECT post_id, COUNT(*) FROM kudos GROUP BY post_id;
                CREATE TRIGGER kudos_counted AFTER INSERT ON kudos BEGIN
                  INSERT INTO post_counts (post_id, kudos) VALUES (NEW.post_id, 1)
                  ON CONFLICT (post_id) DO UPDATE SET kudos = kudos + 1;
                END;
                CREATE TRIGGER kudos_uncounted AFTER DELETE ON kudos BEGIN
                  UPDATE post_counts SET kudos = kudos - 1 WHERE post_id = OLD.post_id;
                END;
                """)
    }
}
