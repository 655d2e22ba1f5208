import GRDB

extension SQLiteMigrations {
    /// Search finds workouts by what they are called and what was done in them, not only by the post's text:
    /// "squat" finds "Squat day" and a workout with Back Squat in it.
    ///
    /// The index becomes contentless (`content=''`) with three columns the triggers compute from the row: the
    /// text, the workout's title and notes, and its exercise names. A contentless index forgets a row only when
    /// told the values it was given, so the delete triggers compute them again from the old row, by the same
    /// expressions.
    ///
    /// People are found by the words of their bio too (`users_bio_fts`, kept by triggers like `users_fts`).
    static let postsSearchWorkouts = SQLiteMigration(name: "2026-11-26-posts-search-workouts-bios") { db in
        func columns(_ row: String) -> String {
            """
            \(row).text,
            trim(coalesce(json_extract(\(row).workout, '$.title'), '') || ' '
                || coalesce(json_extract(\(row).workout, '$.notes'), '')),
            coalesce((SELECT group_concat(json_extract(e.value, '$.name'), ' ')
                      FROM json_each(\(row).workout, '$.exercises') AS e), '')
            """
        }
        try db.execute(
            sql: """
                DROP TRIGGER posts_fts_insert;
                DROP TRIGGER posts_fts_delete;
                DROP TRIGGER posts_fts_update;
                DROP TABLE posts_fts;
                CREATE VIRTUAL TABLE posts_fts USING fts5(
                    text, workout, exercises, content='', tokenize='unicode61 remove_diacritics 2');
                CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts BEGIN
                    INSERT INTO posts_fts(rowid, text, workout, exercises) VALUES (new.rowid, \(columns("new")));
                END;
                CREATE TRIGGER posts_fts_delete AFTER DELETE ON posts BEGIN
                    INSERT INTO posts_fts(posts_fts, rowid, text, workout, exercises)
                    VALUES ('delete', old.rowid, \(columns("old")));
                END;
                CREATE TRIGGER posts_fts_update AFTER UPDATE OF text, workout ON posts BEGIN
                    INSERT INTO posts_fts(posts_fts, rowid, text, workout, exercises)
                    VALUES ('delete', old.rowid, \(columns("old")));
                    INSERT INTO posts_fts(rowid, text, workout, exercises) VALUES (new.rowid, \(columns("new")));
                END;
                INSERT INTO posts_fts(rowid, text, workout, exercises) SELECT p.rowid, \(columns("p")) FROM posts p;
                CREATE VIRTUAL TABLE users_bio_fts USING fts5(
                    bio, content='users', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
                CREATE TRIGGER users_bio_fts_insert AFTER INSERT ON users BEGIN
                    INSERT INTO users_bio_fts(rowid, bio) VALUES (new.rowid, new.bio);
                END;
                CREATE TRIGGER users_bio_fts_delete AFTER DELETE ON users BEGIN
                    INSERT INTO users_bio_fts(users_bio_fts, rowid, bio) VALUES ('delete', old.rowid, old.bio);
                END;
                CREATE TRIGGER users_bio_fts_update AFTER UPDATE OF bio ON users BEGIN
                    INSERT INTO users_bio_fts(users_bio_fts, rowid, bio) VALUES ('delete', old.rowid, old.bio);
                    INSERT INTO users_bio_fts(rowid, bio) VALUES (new.rowid, new.bio);
                END;
                INSERT INTO users_bio_fts(users_bio_fts) VALUES ('rebuild');
                """)
    }
}
