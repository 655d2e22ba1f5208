import Logging
import PostgresNIO

/// The PostgreSQL schema, one migration per change, never edited once released. Each migration is a list of
/// statements (the extended protocol takes one statement per query).
enum PostgresMigrations {
    static let all: [(name: String, statements: [PostgresQuery])] = [
        (
            "2026-11-22 accounts and tokens",
            [
                """
                CREATE TABLE users (
                    id UUID PRIMARY KEY,
                    username TEXT NOT NULL,
                    username_key TEXT NOT NULL CONSTRAINT users_username_key_unique UNIQUE,
                    email TEXT,
                    email_key TEXT CONSTRAINT users_email_key_unique UNIQUE,
                    password_hash TEXT,
                    display_name TEXT NOT NULL,
                    apple_subject TEXT CONSTRAINT users_apple_subject_unique UNIQUE,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """,
                """
                CREATE TABLE tokens (
                    hash TEXT PRIMARY KEY,
                    user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    family UUID NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
                    created_at TIMESTAMPTZ NOT NULL,
                    expires_at TIMESTAMPTZ NOT NULL,
                    used_at TIMESTAMPTZ,
                    revoked_at TIMESTAMPTZ
                )
                """,
                "CREATE INDEX tokens_by_family ON tokens(family)",
                "CREATE INDEX tokens_by_expiry ON tokens(expires_at)",
            ]
        ),
        (
            "2026-11-22 idempotency keys",
            [
                """
                CREATE TABLE idempotency_keys (
                    scope TEXT NOT NULL,
                    key TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    status INTEGER,
                    content_type TEXT,
                    body BYTEA,
                    PRIMARY KEY (scope, key)
                )
                """,
                "CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at)",
            ]
        ),
        (
            "2026-11-22 social core",
            [
                "ALTER TABLE users ADD COLUMN bio TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE users ADD COLUMN avatar_url TEXT",
                "ALTER TABLE users ADD COLUMN units TEXT NOT NULL DEFAULT 'kg'",
                "ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC'",
                "ALTER TABLE users ADD COLUMN privacy TEXT NOT NULL DEFAULT 'public'",
                "ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member'",
                "ALTER TABLE users ADD COLUMN suspended_at TIMESTAMPTZ",
                "ALTER TABLE users ADD COLUMN featured_at TIMESTAMPTZ",
                """
                CREATE TABLE follows (
                    follower_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    followee_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    state TEXT NOT NULL CHECK (state IN ('accepted', 'pending')),
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (follower_id, followee_id)
                )
                """,
                "CREATE INDEX follows_by_followee ON follows(followee_id, state, created_at)",
                """
                CREATE TABLE blocks (
                    blocker_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    blocked_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (blocker_id, blocked_id)
                )
                """,
                "CREATE INDEX blocks_by_blocked ON blocks(blocked_id)",
                """
                CREATE TABLE mutes (
                    muter_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    muted_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (muter_id, muted_id)
                )
                """,
                """
                CREATE TABLE posts (
                    id UUID PRIMARY KEY,
                    author_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('note', 'workout')),
                    text TEXT NOT NULL,
                    visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
                    workout TEXT,
                    records TEXT NOT NULL DEFAULT '[]',
                    hashtags TEXT NOT NULL DEFAULT '[]',
                    mentions TEXT NOT NULL DEFAULT '[]',
                    template_id UUID,
                    text_hash TEXT NOT NULL,
                    in_global BOOLEAN NOT NULL,
                    performed_at TIMESTAMPTZ NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    edited_at TIMESTAMPTZ,
                    deleted_at TIMESTAMPTZ
                )
                """,
                "CREATE INDEX posts_by_author ON posts(author_id, id) WHERE deleted_at IS NULL",
                """
                CREATE INDEX posts_global ON posts(id)
                WHERE deleted_at IS NULL AND in_global AND visibility = 'public'
                """,
                """
                CREATE INDEX posts_public_by_performed ON posts(performed_at)
                WHERE deleted_at IS NULL AND visibility = 'public'
                """,
                "CREATE INDEX posts_by_author_text ON posts(author_id, text_hash, created_at)",
                """
                CREATE TABLE post_tags (
                    tag TEXT NOT NULL,
                    post_id UUID NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                    PRIMARY KEY (tag, post_id)
                )
                """,
                "CREATE INDEX post_tags_by_post ON post_tags(post_id)",
                """
                CREATE TABLE kudos (
                    post_id UUID NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                    user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (post_id, user_id)
                )
                """,
                "CREATE INDEX kudos_by_user ON kudos(user_id, post_id)",
                """
                CREATE TABLE comments (
                    id UUID PRIMARY KEY,
                    post_id UUID NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                    parent_id UUID REFERENCES comments(id) ON DELETE CASCADE,
                    author_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    text TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    deleted_at TIMESTAMPTZ
                )
                """,
                "CREATE INDEX comments_by_post ON comments(post_id, id)",
                """
                CREATE TABLE personal_bests (
                    user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    exercise_key TEXT NOT NULL,
                    bests TEXT NOT NULL,
                    PRIMARY KEY (user_id, exercise_key)
                )
                """,
            ]
        ),
        (
            "2026-11-22 search",
            [
                // pg_trgm is a trusted extension (PostgreSQL 13+): any role that may create objects in the
                // database can enable it, so no superuser is needed.
                "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                """
                CREATE INDEX users_search_trgm ON users
                USING gin ((username_key || ' ' || lower(display_name)) gin_trgm_ops)
                """,
                "CREATE INDEX posts_text_search ON posts USING gin (to_tsvector('simple', text))",
                "CREATE INDEX post_tags_by_tag_prefix ON post_tags (tag text_pattern_ops)",
            ]
        ),
        (
            "2026-11-22 templates",
            [
                """
                CREATE TABLE exercise_templates (
                    id UUID PRIMARY KEY,
                    author_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    equipment TEXT,
                    muscle_groups TEXT NOT NULL,
                    format TEXT NOT NULL,
                    visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
                    created_at TIMESTAMPTZ NOT NULL,
                    deleted_at TIMESTAMPTZ
                )
                """,
                "CREATE INDEX exercise_templates_by_author ON exercise_templates(author_id, id)",
                """
                CREATE TABLE workout_templates (
                    id UUID PRIMARY KEY,
                    author_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    type TEXT NOT NULL,
                    description TEXT NOT NULL,
                    exercises TEXT NOT NULL,
                    visibility TEXT NOT NULL CHECK (visibility IN ('public', 'followers', 'private')),
                    created_at TIMESTAMPTZ NOT NULL,
                    deleted_at TIMESTAMPTZ
                )
                """,
                "CREATE INDEX workout_templates_by_author ON workout_templates(author_id, id)",
                "CREATE INDEX posts_by_template ON posts(template_id) WHERE template_id IS NOT NULL",
            ]
        ),
        (
            "2026-11-23 analytics",
            [
                """
                CREATE TABLE analytics_events (
                    id BIGSERIAL PRIMARY KEY,
                    user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    occurred_at TIMESTAMPTZ NOT NULL,
                    received_at TIMESTAMPTZ NOT NULL,
                    properties TEXT NOT NULL
                )
                """,
                "CREATE INDEX analytics_by_time ON analytics_events(occurred_at, user_id)",
                "CREATE INDEX analytics_by_name ON analytics_events(name, occurred_at)",
            ]
        ),
        (
            "2026-11-23 notifications",
            [
                """
                CREATE TABLE notifications (
                    id UUID PRIMARY KEY,
                    recipient_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    type TEXT NOT NULL,
                    actor_id UUID REFERENCES users(id) ON DELETE CASCADE,
                    post_id UUID,
                    comment_id UUID,
                    group_key TEXT NOT NULL,
                    dedupe_key TEXT,
                    detail TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    seen_at TIMESTAMPTZ,
                    read_at TIMESTAMPTZ,
                    archived_at TIMESTAMPTZ
                )
                """,
                """
                CREATE UNIQUE INDEX notifications_dedupe ON notifications(recipient_id, dedupe_key)
                WHERE dedupe_key IS NOT NULL
                """,
                "CREATE INDEX notifications_inbox ON notifications(recipient_id, group_key, id)",
                "CREATE INDEX notifications_by_recipient ON notifications(recipient_id, id)",
                """
                CREATE TABLE notification_preferences (
                    user_id UUID PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    preferences TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE push_devices (
                    token TEXT PRIMARY KEY,
                    user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX push_devices_by_user ON push_devices(user_id)",
                """
                CREATE TABLE web_push_subscriptions (
                    endpoint TEXT PRIMARY KEY,
                    user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    p256dh TEXT NOT NULL,
                    auth TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX web_push_by_user ON web_push_subscriptions(user_id)",
                """
                CREATE TABLE known_devices (
                    user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device TEXT NOT NULL,
                    first_seen TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (user_id, device)
                )
                """,
                """
                CREATE TABLE delivery_jobs (
                    id UUID PRIMARY KEY,
                    recipient_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    channel TEXT NOT NULL CHECK (channel IN ('push', 'email')),
                    batch_key TEXT,
                    state TEXT NOT NULL CHECK (state IN ('pending', 'retrying', 'running', 'sent', 'failed')),
                    run_at TIMESTAMPTZ NOT NULL,
                    leased_until TIMESTAMPTZ,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    created_at TIMESTAMPTZ NOT NULL,
                    finished_at TIMESTAMPTZ
                )
                """,
                """
                CREATE UNIQUE INDEX delivery_jobs_open_batch ON delivery_jobs(recipient_id, channel, batch_key)
                WHERE batch_key IS NOT NULL AND state = 'pending'
                """,
                """
                CREATE INDEX delivery_jobs_due ON delivery_jobs(run_at)
                WHERE state IN ('pending', 'retrying', 'running')
                """,
                """
                CREATE INDEX delivery_jobs_sent ON delivery_jobs(recipient_id, channel, finished_at)
                WHERE state = 'sent'
                """,
                """
                CREATE TABLE delivery_items (
                    job_id UUID NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                    notification_id UUID NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
                    channel TEXT NOT NULL,
                    PRIMARY KEY (notification_id, channel)
                )
                """,
                "CREATE INDEX delivery_items_by_job ON delivery_items(job_id)",
                """
                CREATE TABLE delivery_attempts (
                    id BIGSERIAL PRIMARY KEY,
                    job_id UUID NOT NULL REFERENCES delivery_jobs(id) ON DELETE CASCADE,
                    target TEXT NOT NULL,
                    status TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX delivery_attempts_by_job ON delivery_attempts(job_id)",
            ]
        ),
        (
            // The reminder sweep asks who trained in the last days, whatever their posts' visibility.
            "2026-11-23 reminders",
            [
                """
                CREATE INDEX posts_workouts_by_performed ON posts(performed_at, author_id)
                WHERE deleted_at IS NULL AND kind = 'workout'
                """
            ]
        ),
        (
            "2026-11-23 kudos in order",
            // A post's first givers (the kudos preview) without ranking all of its kudos.
            ["CREATE INDEX kudos_in_order ON kudos(post_id, created_at, user_id)"]
        ),
        (
            "2026-11-24 kudos counted",
            // Triggers keep the count of all a post's kudos, so no write path can leave it behind; a read
            // subtracts only the kudos of the few people it must hide (`PostgresPostSQL.kudosCount`). Counting
            // at every read cost one giver lookup and two block probes per kudos (issue 8). A narrow table
            // of its own: updating a column of posts would write a new version of the whole post, and of its
            // entries in every index on posts whenever the page had no room for the new version.
            [
                "CREATE TABLE post_counts (post_id UUID PRIMARY KEY, kudos INTEGER NOT NULL)",
                "INSERT INTO post_counts (post_id, kudos) SELECT post_id, COUNT(*) FROM kudos GROUP BY post_id",
                """
                CREATE FUNCTION kudos_counted() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF TG_OP = 'INSERT' THEN
                    INSERT INTO post_counts (post_id, kudos) VALUES (NEW.post_id, 1)
                    ON CONFLICT (post_id) DO UPDATE SET kudos = post_counts.kudos + 1;
                  ELSE
                    UPDATE post_counts SET kudos = kudos - 1 WHERE post_id = OLD.post_id;
                  END IF;
                  RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER kudos_counted AFTER INSERT OR DELETE ON kudos
                FOR EACH ROW EXECUTE FUNCTION kudos_counted()
                """,
                // Few people are ever suspended: reads take them as one small set.
                "CREATE INDEX users_suspended ON users(id) WHERE suspended_at IS NOT NULL",
            ]
        ),
        (
            "2026-11-24 comments counted",
            // As for kudos: triggers keep the count of the comments anyone may see (not tombstoned, and a reply
            // only under a parent that is not), and a read subtracts those of the few people it must hide
            // (`PostgresPostSQL.commentsCount`). Counting at every read read every comment of the post (issue
            // 8). Replies are one level deep and on their parent's post, and a tombstone is never lifted nor a
            // comment deleted outright, so insert and tombstone are the only changes to count; the tombstone
            // takes its live replies with it, as the list does. A reply locks its parent (FOR SHARE) before
            // counting itself, so a reply and its parent's tombstone made at once are counted in one order or
            // the other, never both missing the other. BEFORE, not AFTER: PostgreSQL runs AFTER row triggers
            // at the end of the statement, so one statement tombstoning a comment and its reply would have each
            // see the other already gone and count the reply out by neither; a BEFORE trigger sees the rows
            // the statement changed before it, one at a time, as SQLite's triggers do.
            [
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
        ),
        (
            "2026-11-24 people counted",
            // As on SQLite (its migration of the same name says why): triggers keep each person's accepted
            // follows both ways and their posts not deleted, by visibility; reads take away suspended people's
            // follows and pick the visibility classes the viewer may see. Each change is counted by its delta
            // through one upsert.
            [
                """
                CREATE TABLE user_counts (
                    user_id UUID PRIMARY KEY,
                    followers INTEGER NOT NULL DEFAULT 0,
                    following INTEGER NOT NULL DEFAULT 0,
                    public_posts INTEGER NOT NULL DEFAULT 0,
                    followers_posts INTEGER NOT NULL DEFAULT 0,
                    private_posts INTEGER NOT NULL DEFAULT 0
                )
                """,
                """
                INSERT INTO user_counts (user_id, followers, following, public_posts, followers_posts, private_posts)
                SELECT u.id,
                  (SELECT COUNT(*) FROM follows f WHERE f.followee_id = u.id AND f.state = 'accepted'),
                  (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id AND f.state = 'accepted'),
                  COALESCE(n.public_posts, 0), COALESCE(n.followers_posts, 0), COALESCE(n.private_posts, 0)
                FROM users u LEFT JOIN (
                  SELECT author_id, COUNT(*) FILTER (WHERE visibility = 'public') AS public_posts,
                         COUNT(*) FILTER (WHERE visibility = 'followers') AS followers_posts,
                         COUNT(*) FILTER (WHERE visibility = 'private') AS private_posts
                  FROM posts WHERE deleted_at IS NULL GROUP BY author_id) n ON n.author_id = u.id
                """,
                """
                CREATE FUNCTION follows_counted() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                  delta INTEGER := 0;
                  edge follows;
                BEGIN
                  IF TG_OP = 'DELETE' THEN
                    edge := OLD;
                    IF OLD.state = 'accepted' THEN delta := -1; END IF;
                  ELSE
                    edge := NEW;
                    IF NEW.state = 'accepted' THEN delta := 1; END IF;
                    IF TG_OP = 'UPDATE' THEN
                      IF OLD.state = 'accepted' THEN delta := delta - 1; END IF;
                    END IF;
                  END IF;
                  IF delta <> 0 THEN
                    INSERT INTO user_counts AS c (user_id, followers) VALUES (edge.followee_id, delta)
                    ON CONFLICT (user_id) DO UPDATE SET followers = c.followers + EXCLUDED.followers;
                    INSERT INTO user_counts AS c (user_id, following) VALUES (edge.follower_id, delta)
                    ON CONFLICT (user_id) DO UPDATE SET following = c.following + EXCLUDED.following;
                  END IF;
                  RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER follows_counted AFTER INSERT OR UPDATE OF state OR DELETE ON follows
                FOR EACH ROW EXECUTE FUNCTION follows_counted()
                """,
                """
                CREATE FUNCTION posts_counted() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                  author UUID;
                  public_delta INTEGER := 0;
                  followers_delta INTEGER := 0;
                  private_delta INTEGER := 0;
                BEGIN
                  IF TG_OP <> 'DELETE' THEN
                    author := NEW.author_id;
                    IF NEW.deleted_at IS NULL THEN
                      CASE NEW.visibility
                        WHEN 'public' THEN public_delta := 1;
                        WHEN 'followers' THEN followers_delta := 1;
                        ELSE private_delta := 1;
                      END CASE;
                    END IF;
                  END IF;
                  IF TG_OP <> 'INSERT' THEN
                    author := OLD.author_id;
                    IF OLD.deleted_at IS NULL THEN
                      CASE OLD.visibility
                        WHEN 'public' THEN public_delta := public_delta - 1;
                        WHEN 'followers' THEN followers_delta := followers_delta - 1;
                        ELSE private_delta := private_delta - 1;
                      END CASE;
                    END IF;
                  END IF;
                  IF public_delta <> 0 OR followers_delta <> 0 OR private_delta <> 0 THEN
                    INSERT INTO user_counts AS c (user_id, public_posts, followers_posts, private_posts)
                    VALUES (author, public_delta, followers_delta, private_delta)
                    ON CONFLICT (user_id) DO UPDATE SET
                      public_posts = c.public_posts + EXCLUDED.public_posts,
                      followers_posts = c.followers_posts + EXCLUDED.followers_posts,
                      private_posts = c.private_posts + EXCLUDED.private_posts;
                  END IF;
                  RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER posts_counted AFTER INSERT OR UPDATE OF visibility, deleted_at OR DELETE ON posts
                FOR EACH ROW EXECUTE FUNCTION posts_counted()
                """,
            ]
        ),
        (
            // The realtime hub asks who mutes a post's author for every event about the post.
            "2026-11-25 mutes by muted",
            ["CREATE INDEX mutes_by_muted ON mutes(muted_id)"]
        ),
    ]

    /// Applies what is missing, in one transaction under an advisory lock, so nodes starting together
    /// migrate once.
    static func run(
        on client: PostgresClient, logger: Logger, before stop: String? = nil
    ) async throws {
        if let stop { precondition(all.contains { $0.name == stop }, "no PostgreSQL migration is named \(stop)") }
        let wanted = all.prefix { $0.name != stop }
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(74210001)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS spotter_migrations (
                    name TEXT PRIMARY KEY,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM spotter_migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            for migration in wanted where !applied.contains(migration.name) {
                logger.info("applying migration", metadata: ["migration": "\(migration.name)"])
                for statement in migration.statements {
                    try await connection.query(statement, logger: logger)
                }
                try await connection.query(
                    "INSERT INTO spotter_migrations (name) VALUES (\(migration.name))", logger: logger)
            }
        }
    }
}
