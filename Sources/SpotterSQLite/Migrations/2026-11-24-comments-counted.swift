import GRDB

extension SQLiteMigrations {
    static let commentsCounted = SQLiteMigration(name: "2026-11-24 comments counted") { db in
        // Counting a post's comments at every read read every comment of it, and a reply's parent: a post
        // with thousands of comments made every page it was on slower. Triggers keep the count of
        // the comments anyone may see (not tombstoned, and a reply only under a parent that is not), beside
        // the kudos; a read subtracts those of the few people it must hide (`SQLitePostSQL.commentsCount`),
        // found through `comments_by_post_author` and, for replies under them, `comments_by_parent`.
        // Replies are one level deep and on their parent's post (`PostService.comment`), and a tombstone is
        // never lifted nor a comment deleted outright, so insert and tombstone are the only changes to
        // count. The tombstone takes its live replies with it, as the list does. The rule is written out
        // here rather than taken from `SQLitePostSQL.countedComment`: a migration must not change later.
        try db.execute(
            sql: """
                ALTER TABLE post_counts ADD COLUMN comments INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX comments_by_post_author ON comments(post_id, author_id);
                CREATE INDEX comments_by_parent ON comments(parent_id) WHERE parent_id IS NOT NULL;
                INSERT INTO post_counts (post_id, kudos, comments)
                SELECT c.post_id, 0, COUNT(*) FROM comments c
                WHERE c.deleted_at IS NULL AND (c.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
                                                WHERE pc.id = c.parent_id AND pc.deleted_at IS NULL))
                GROUP BY c.post_id
                ON CONFLICT (post_id) DO UPDATE SET comments = excluded.comments;
                CREATE TRIGGER comments_counted AFTER INSERT ON comments
                WHEN NEW.deleted_at IS NULL AND (NEW.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
                                                 WHERE pc.id = NEW.parent_id AND pc.deleted_at IS NULL))
                BEGIN
                  INSERT INTO post_counts (post_id, kudos, comments) VALUES (NEW.post_id, 0, 1)
                  ON CONFLICT (post_id) DO UPDATE SET comments = comments + 1;
                END;
                CREATE TRIGGER comments_tombstoned AFTER UPDATE OF deleted_at ON comments
                WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL
                BEGIN
                  UPDATE post_counts SET comments = comments
                    - (OLD.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
                                                        WHERE pc.id = OLD.parent_id AND pc.deleted_at IS NULL))
                    - (SELECT COUNT(*) FROM comments r WHERE r.parent_id = OLD.id AND r.deleted_at IS NULL)
                  WHERE post_id = OLD.post_id;
                END;
                """)
    }
}
