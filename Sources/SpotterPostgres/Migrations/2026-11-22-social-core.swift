import PostgresNIO

extension PostgresMigrations {
    static let socialCore = PostgresMigration(
        name: "2026-11-22 social core",
        statements: [
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
    )
}
