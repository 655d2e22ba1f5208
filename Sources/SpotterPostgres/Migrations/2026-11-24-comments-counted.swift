import PostgresNIO

extension PostgresMigrations {
    // As for kudos: triggers keep the count of the comments anyone may see (not tombstoned, and a reply
    // only under a parent that is not), and a read subtracts those of the few people it must hide
    // (`PostgresPostSQL.commentsCount`). Counting at every read read every comment of the post, so a
    // post with many comments made every page it was on slower. Replies are one level deep and on their
    // parent's post, and a tombstone is never lifted nor a comment deleted outright, so insert and
    // tombstone are the only changes to count; the tombstone takes its live replies with it, as the
    // list does. A reply locks its parent (FOR SHARE) before counting itself, so a reply and its
    // parent's tombstone made at once are counted in one order or the other, never both missing the
    // other. BEFORE, not AFTER: PostgreSQL runs AFTER row triggers at the end of the statement, so one
    // statement tombstoning a comment and its reply would have each see the other already gone and
    // count the reply out by neither; a BEFORE trigger sees the rows the statement changed before it,
    // one at a time, as SQLite's triggers do.
    static let commentsCounted = PostgresMigration(
        name: "2026-11-24 comments counted",
        statements: [
            "ALTER TABLE post_counts ADD COLUMN comments INTEGER NOT NULL DEFAULT 0",
            "CREATE INDEX comments_by_post_author ON comments(post_id, author_id)",
            "CREATE INDEX comments_by_parent ON comments(parent_id) WHERE parent_id IS NOT NULL",
            """
            INSERT INTO post_counts (post_id, kudos, comments)
            SELECT c.post_id, 0, COUNT(*) FROM comments c
            WHERE c.deleted_at IS NULL AND (c.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
                                            WHERE pc.id = c.parent_id AND pc.deleted_at IS NULL))
            GROUP BY c.post_id
            ON CONFLICT (post_id) DO UPDATE SET comments = EXCLUDED.comments
            """,
            """
            CREATE FUNCTION comments_counted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                IF NEW.deleted_at IS NOT NULL THEN RETURN NEW; END IF;
                IF NEW.parent_id IS NOT NULL THEN
                  PERFORM 1 FROM comments pc WHERE pc.id = NEW.parent_id AND pc.deleted_at IS NULL FOR SHARE;
                  IF NOT FOUND THEN RETURN NEW; END IF;
                END IF;
                INSERT INTO post_counts (post_id, kudos, comments) VALUES (NEW.post_id, 0, 1)
                ON CONFLICT (post_id) DO UPDATE SET comments = post_counts.comments + 1;
              ELSIF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
                UPDATE post_counts SET comments = comments
                  - (CASE WHEN OLD.parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
                          WHERE pc.id = OLD.parent_id AND pc.deleted_at IS NULL) THEN 1 ELSE 0 END)
                  - (SELECT COUNT(*) FROM comments r WHERE r.parent_id = OLD.id AND r.deleted_at IS NULL)
                WHERE post_id = OLD.post_id;
              END IF;
              RETURN NEW;
            END
            $$
            """,
            """
            CREATE TRIGGER comments_counted BEFORE INSERT OR UPDATE OF deleted_at ON comments
            FOR EACH ROW EXECUTE FUNCTION comments_counted()
            """,
        ]
    )
}
