import GRDB

extension SQLiteMigrations {
    static let socialCore = SQLiteMigration(name: "2026-11-22 social core") { db in
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
}
