import GRDB

/// The SQLite schema, one registered migration per change, never edited once released.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("2026-11-22 accounts and tokens") { db in
            // username_key and email_key hold the lowercased value so uniqueness ignores case the same way on
            // SQLite and PostgreSQL (both computed in Swift).
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY NOT NULL,
                        username TEXT NOT NULL,
                        username_key TEXT NOT NULL UNIQUE,
                        email TEXT,
                        email_key TEXT UNIQUE,
                        password_hash TEXT,
                        display_name TEXT NOT NULL,
                        apple_subject TEXT UNIQUE,
                        created_at REAL NOT NULL
                    );
                    CREATE TABLE tokens (
                        hash TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        family TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        used_at REAL,
                        revoked_at REAL
                    );
                    CREATE INDEX tokens_by_family ON tokens(family);
                    CREATE INDEX tokens_by_expiry ON tokens(expires_at);
                    """)
        }
        migrator.registerMigration("2026-11-22 idempotency keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_keys (
                        scope TEXT NOT NULL,
                        key TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        status INTEGER,
                        content_type TEXT,
                        body BLOB,
                        PRIMARY KEY (scope, key)
                    );
                    CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);
                    """)
        }
        migrator.registerMigration("2026-11-22 social core") { db in
            // Posts carry their own ordering key: the UUIDv7 id, whose text sorts by time, so every feed
            // pages with `id < cursor` over an index and never skips or repeats while posts arrive.
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN bio TEXT NOT NULL DEFAULT '';
                    ALTER TABLE users ADD COLUMN avatar_url TEXT;
                    ALTER TABLE users ADD COLUMN units TEXT NOT NULL DEFAULT 'kg';
                    ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
                    ALTER TABLE users ADD COLUMN privacy TEXT NOT NULL DEFAULT 'public';
                    ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
                    ALTER TABLE users ADD COLUMN suspended_at REAL;
                    ALTER TABLE users ADD COLUMN featured_at REAL;
                    CREATE TABLE follows (
                        follower_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        followee_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        state TEXT NOT NULL CHECK (state IN ('accepted', 'pending')),
                        created_at REAL NOT NULL,
                        PRIMARY KEY (follower_id, followee_id)
                    );
                    CREATE INDEX follows_by_followee ON follows(followee_id, state, created_at);
                    CREATE TABLE blocks (
                        blocker_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        blocked_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (blocker_id, blocked_id)
                    );
                    CREATE INDEX blocks_by_blocked ON blocks(blocked_id);
                    CREATE TABLE mutes (
                        muter_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        muted_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (muter_id, muted_id)
                    );
                    CREATE TABLE posts (
                        id TEXT PRIMARY KEY NOT NULL,
                        author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('note', 'workout')),
                        text TEXT NOT NULL,
                        visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
                        workout TEXT,
                        records TEXT NOT NULL DEFAULT '[]',
                        hashtags TEXT NOT NULL DEFAULT '[]',
                        mentions TEXT NOT NULL DEFAULT '[]',
                        template_id TEXT,
                        text_hash TEXT NOT NULL,
                        in_global INTEGER NOT NULL,
                        performed_at REAL NOT NULL,
                        created_at REAL NOT NULL,
                        edited_at REAL,
                        deleted_at REAL
                    );
                    CREATE INDEX posts_by_author ON posts(author_id, id) WHERE deleted_at IS NULL;
                    CREATE INDEX posts_global ON posts(id) WHERE deleted_at IS NULL AND in_global = 1 AND visibility = 'public';
                    CREATE INDEX posts_public_by_performed ON posts(performed_at) WHERE deleted_at IS NULL AND visibility = 'public';
                    CREATE INDEX posts_by_author_text ON posts(author_id, text_hash, created_at);
                    CREATE TABLE post_tags (
                        tag TEXT NOT NULL,
                        post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                        PRIMARY KEY (tag, post_id)
                    );
                    CREATE INDEX post_tags_by_post ON post_tags(post_id);
                    CREATE TABLE kudos (
                        post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (post_id, user_id)
                    );
                    CREATE INDEX kudos_by_user ON kudos(user_id, post_id);
                    CREATE TABLE comments (
                        id TEXT PRIMARY KEY NOT NULL,
                        post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                        parent_id TEXT REFERENCES comments(id) ON DELETE CASCADE,
                        author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        text TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        deleted_at REAL
                    );
                    CREATE INDEX comments_by_post ON comments(post_id, id);
                    CREATE TABLE personal_bests (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        exercise_key TEXT NOT NULL,
                        bests TEXT NOT NULL,
                        PRIMARY KEY (user_id, exercise_key)
                    );
                    """)
        }
        migrator.registerMigration("2026-11-22 search") { db in
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
        migrator.registerMigration("2026-11-22 templates") { db in
            // Same author_id / visibility / deleted_at columns as posts, so the one visibility rule applies.
            try db.execute(
                sql: """
                    CREATE TABLE exercise_templates (
                        id TEXT PRIMARY KEY NOT NULL,
                        author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        equipment TEXT,
                        muscle_groups TEXT NOT NULL,
                        format TEXT NOT NULL,
                        visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
                        created_at REAL NOT NULL,
                        deleted_at REAL
                    );
                    CREATE INDEX exercise_templates_by_author ON exercise_templates(author_id, id);
                    CREATE TABLE workout_templates (
                        id TEXT PRIMARY KEY NOT NULL,
                        author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        type TEXT NOT NULL,
                        description TEXT NOT NULL,
                        exercises TEXT NOT NULL,
                        visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
                        created_at REAL NOT NULL,
                        deleted_at REAL
                    );
                    CREATE INDEX workout_templates_by_author ON workout_templates(author_id, id);
                    CREATE INDEX posts_by_template ON posts(template_id) WHERE template_id IS NOT NULL;
                    """)
        }
        migrator.registerMigration("2026-11-23 analytics") { db in
            try db.execute(
                sql: """
                    CREATE TABLE analytics_events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        occurred_at REAL NOT NULL,
                        received_at REAL NOT NULL,
                        properties TEXT NOT NULL
                    );
                    CREATE INDEX analytics_by_time ON analytics_events(occurred_at, user_id);
                    CREATE INDEX analytics_by_name ON analytics_events(name, occurred_at);
                    """)
        }
        migrator.registerMigration("2026-11-23 notifications") { db in
            // A notification is in at most one job per channel (delivery_items' key); a recipient has at most
            // one pending job per batch key, which later notifications of the batch join.
            try db.execute(
                sql: """
                    CREATE TABLE notifications (
                        id TEXT PRIMARY KEY NOT NULL,
                        recipient_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        type TEXT NOT NULL,
                        actor_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                        post_id TEXT,
                        comment_id TEXT,
                        group_key TEXT NOT NULL,
                        dedupe_key TEXT,
                        detail TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        seen_at REAL,
                        read_at REAL,
                        archived_at REAL
                    );
                    CREATE UNIQUE INDEX notifications_dedupe ON notifications(recipient_id, dedupe_key)
                        WHERE dedupe_key IS NOT NULL;
                    CREATE INDEX notifications_inbox ON notifications(recipient_id, group_key, id);
                    CREATE INDEX notifications_by_recipient ON notifications(recipient_id, id);
                    CREATE TABLE notification_preferences (
                        user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        preferences TEXT NOT NULL
                    );
                    CREATE TABLE push_devices (
                        token TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX push_devices_by_user ON push_devices(user_id);
                    CREATE TABLE web_push_subscriptions (
                        endpoint TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        p256dh TEXT NOT NULL,
                        auth TEXT NOT NULL,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX web_push_by_user ON web_push_subscriptions(user_id);
                    CREATE TABLE known_devices (
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        device TEXT NOT NULL,
                        first_seen REAL NOT NULL,
                        PRIMARY KEY (user_id, device)
                    );
                    CREATE TABLE delivery_jobs (
                        id TEXT PRIMARY KEY NOT NULL,
                        recipient_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        channel TEXT NOT NULL CHECK (channel IN ('push', 'email')),
                        batch_key TEXT,
                        state TEXT NOT NULL CHECK (state IN ('pending', 'retrying', 'running', 'sent', 'failed')),
                        run_at REAL NOT NULL,
                        leased_until REAL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        created_at REAL NOT NULL,
                        finished_at REAL
                    );
                    CREATE UNIQUE INDEX delivery_jobs_open_batch ON delivery_jobs(recipient_id, channel, batch_key)
                        WHERE batch_key IS NOT NULL AND state = 'pending';
                    CREATE INDEX delivery_jobs_due ON delivery_jobs(run_at) WHERE state IN ('pending', 'retrying', 'running');
                    CREATE INDEX delivery_jobs_sent ON delivery_jobs(recipient_id, channel, finished_at) WHERE state = 'sent';
                    CREATE TABLE delivery_items (
                        job_id TEXT NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                        notification_id TEXT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
                        channel TEXT NOT NULL,
                        PRIMARY KEY (notification_id, channel)
                    );
                    CREATE INDEX delivery_items_by_job ON delivery_items(job_id);
                    CREATE TABLE delivery_attempts (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        job_id TEXT NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                        target TEXT NOT NULL,
                        status TEXT NOT NULL,
                        detail TEXT NOT NULL,
                        at REAL NOT NULL
                    );
                    CREATE INDEX delivery_attempts_by_job ON delivery_attempts(job_id);
                    """)
        }
        migrator.registerMigration("2026-11-23 reminders") { db in
            // The reminder sweep asks who trained in the last days, whatever their posts' visibility.
            try db.execute(
                sql: """
                    CREATE INDEX posts_workouts_by_performed ON posts(performed_at, author_id)
                    WHERE deleted_at IS NULL AND kind = 'workout';
                    """)
        }
        migrator.registerMigration("2026-11-23 kudos in order") { db in
            // A post's first givers (the kudos preview) without ranking all of its kudos.
            try db.execute(sql: "CREATE INDEX kudos_in_order ON kudos(post_id, created_at, user_id)")
        }
        migrator.registerMigration("2026-11-24 badge counts") { db in
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
        migrator.registerMigration("2026-11-24 kudos counted") { db in
            // Counting a post's kudos at every read cost one giver lookup and two block probes per kudos: 4 ms
            // for a page of 20 posts with 300 kudos each (issue 8). Triggers keep the count, so no write path
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
        migrator.registerMigration("2026-11-24 comments counted") { db in
            // Counting a post's comments at every read read every comment of it, and a reply's parent: a post
            // with thousands of comments made every page it was on slower (issue 8). Triggers keep the count of
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
        migrator.registerMigration("2026-11-24 people counted") { db in
            // A profile counted its person's followers and following by reading every follow and its other
            // end's account, and their posts by reading every post with the viewer's visibility rule: 26 ms
            // for the benchmark community's most followed person (3,868 followers, 5,022 posts), 2 ms for an
            // average one, growing with both (issue 8). Triggers keep each person's accepted follows both ways
            // and their posts not deleted, by visibility; a read takes away the follows of suspended people
            // (few: `users_suspended`) and picks the visibility classes the viewer may see
            // (`SQLitePostSQL.visiblePostsCount`). Every change is counted by its delta through one upsert,
            // so rows appear when first needed and no write path (a follow, a request accepted, an unfollow,
            // a block's removal of follows, a post, an edit of its visibility, a deletion) can leave the
            // counts behind.
            try db.execute(
                sql: """
                    CREATE TABLE user_counts (
                        user_id TEXT PRIMARY KEY NOT NULL,
                        followers INTEGER NOT NULL DEFAULT 0,
                        following INTEGER NOT NULL DEFAULT 0,
                        public_posts INTEGER NOT NULL DEFAULT 0,
                        followers_posts INTEGER NOT NULL DEFAULT 0,
                        private_posts INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    INSERT INTO user_counts (user_id, followers, following, public_posts, followers_posts, private_posts)
                    SELECT id, 0, 0, 0, 0, 0 FROM users WHERE true;
                    UPDATE user_counts SET
                      followers = (SELECT COUNT(*) FROM follows f
                                   WHERE f.followee_id = user_counts.user_id AND f.state = 'accepted'),
                      following = (SELECT COUNT(*) FROM follows f
                                   WHERE f.follower_id = user_counts.user_id AND f.state = 'accepted');
                    UPDATE user_counts SET
                      public_posts = n.public_posts, followers_posts = n.followers_posts, private_posts = n.private_posts
                    FROM (SELECT author_id, SUM(visibility = 'public') AS public_posts,
                                 SUM(visibility = 'followers') AS followers_posts,
                                 SUM(visibility = 'private') AS private_posts
                          FROM posts WHERE deleted_at IS NULL GROUP BY author_id) AS n
                    WHERE n.author_id = user_counts.user_id;

                    CREATE TRIGGER follows_counted AFTER INSERT ON follows WHEN NEW.state = 'accepted' BEGIN
                      INSERT INTO user_counts (user_id, followers) VALUES (NEW.followee_id, 1)
                      ON CONFLICT (user_id) DO UPDATE SET followers = followers + 1;
                      INSERT INTO user_counts (user_id, following) VALUES (NEW.follower_id, 1)
                      ON CONFLICT (user_id) DO UPDATE SET following = following + 1;
                    END;
                    CREATE TRIGGER follows_recounted AFTER UPDATE OF state ON follows
                    WHEN (OLD.state = 'accepted') <> (NEW.state = 'accepted') BEGIN
                      INSERT INTO user_counts (user_id, followers)
                      VALUES (NEW.followee_id, CASE NEW.state WHEN 'accepted' THEN 1 ELSE -1 END)
                      ON CONFLICT (user_id) DO UPDATE SET followers = followers + excluded.followers;
                      INSERT INTO user_counts (user_id, following)
                      VALUES (NEW.follower_id, CASE NEW.state WHEN 'accepted' THEN 1 ELSE -1 END)
                      ON CONFLICT (user_id) DO UPDATE SET following = following + excluded.following;
                    END;
                    CREATE TRIGGER follows_uncounted AFTER DELETE ON follows WHEN OLD.state = 'accepted' BEGIN
                      UPDATE user_counts SET followers = followers - 1 WHERE user_id = OLD.followee_id;
                      UPDATE user_counts SET following = following - 1 WHERE user_id = OLD.follower_id;
                    END;

                    CREATE TRIGGER posts_counted AFTER INSERT ON posts WHEN NEW.deleted_at IS NULL BEGIN
                      INSERT INTO user_counts (user_id, public_posts, followers_posts, private_posts)
                      VALUES (NEW.author_id, NEW.visibility = 'public', NEW.visibility = 'followers',
                              NEW.visibility = 'private')
                      ON CONFLICT (user_id) DO UPDATE SET
                        public_posts = public_posts + excluded.public_posts,
                        followers_posts = followers_posts + excluded.followers_posts,
                        private_posts = private_posts + excluded.private_posts;
                    END;
                    CREATE TRIGGER posts_recounted AFTER UPDATE OF visibility, deleted_at ON posts
                    WHEN OLD.visibility IS NOT NEW.visibility OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
                    BEGIN
                      INSERT INTO user_counts (user_id, public_posts, followers_posts, private_posts)
                      VALUES (NEW.author_id,
                        (NEW.deleted_at IS NULL AND NEW.visibility = 'public')
                          - (OLD.deleted_at IS NULL AND OLD.visibility = 'public'),
                        (NEW.deleted_at IS NULL AND NEW.visibility = 'followers')
                          - (OLD.deleted_at IS NULL AND OLD.visibility = 'followers'),
                        (NEW.deleted_at IS NULL AND NEW.visibility = 'private')
                          - (OLD.deleted_at IS NULL AND OLD.visibility = 'private'))
                      ON CONFLICT (user_id) DO UPDATE SET
                        public_posts = public_posts + excluded.public_posts,
                        followers_posts = followers_posts + excluded.followers_posts,
                        private_posts = private_posts + excluded.private_posts;
                    END;
                    CREATE TRIGGER posts_uncounted AFTER DELETE ON posts WHEN OLD.deleted_at IS NULL BEGIN
                      UPDATE user_counts SET
                        public_posts = public_posts - (OLD.visibility = 'public'),
                        followers_posts = followers_posts - (OLD.visibility = 'followers'),
                        private_posts = private_posts - (OLD.visibility = 'private')
                      WHERE user_id = OLD.author_id;
                    END;
                    """)
        }
        migrator.registerMigration("2026-11-25 mutes by muted") { db in
            // The realtime hub asks who mutes a post's author for every event about the post.
            try db.execute(sql: "CREATE INDEX mutes_by_muted ON mutes(muted_id)")
        }
        return migrator
    }
}
