import GRDB

extension SQLiteMigrations {
    static let search = SQLiteMigration(name: "2026-11-22 search") { db in
        // FTS5 indexes kept in step with their tables by triggers: trigrams for names (substring and
        // typo-tolerant matching), words for post text.
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE users_fts USING fts5(
                    username, display_name, content='users', content_rowid='rowid', tokenize='trigram');
                CREATE TRIGGER users_fts_insert AFTER INSERT ON users BEGIN
                    INSERT INTO users_fts(rowid, username, display_name)
                    VALUES (new.rowid, new.username, new.display_name);
                END;
                CREATE TRIGGER users_fts_delete AFTER DELETE ON users BEGIN
                    INSERT INTO users_fts(users_fts, rowid, username, display_name)
                    VALUES ('delete', old.rowid, old.username, old.display_name);
                END;
                CREATE TRIGGER users_fts_update AFTER UPDATE OF username, display_name ON users BEGIN
                    INSERT INTO users_fts(users_fts, rowid, username, display_name)
                    VALUES ('delete', old.rowid, old.username, old.display_name);
                    INSERT INTO users_fts(rowid, username, display_name)
                    VALUES (new.rowid, new.username, new.display_name);
                END;
                INSERT INTO users_fts(users_fts) VALUES ('rebuild');
                CREATE VIRTUAL TABLE posts_fts USING fts5(
                    text, content='posts', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
                CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts BEGIN
                    INSERT INTO posts_fts(rowid, text) VALUES (new.rowid, new.text);
                END;
                CREATE TRIGGER posts_fts_delete AFTER DELETE ON posts BEGIN
                    INSERT INTO posts_fts(posts_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
                END;
                CREATE TRIGGER posts_fts_update AFTER UPDATE OF text ON posts BEGIN
                    INSERT INTO posts_fts(posts_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
                    INSERT INTO posts_fts(rowid, text) VALUES (new.rowid, new.text);
                END;
                INSERT INTO posts_fts(posts_fts) VALUES ('rebuild');
                """)
    }
}
