import PostgresNIO

extension PostgresMigrations {
    /// Child profiles (`ChildProfileStore`); see the SQLite twin.
    static let children = PostgresMigration(
        name: "2026-11-29-children",
        statements: [
            """
            CREATE TABLE children (
                id UUID PRIMARY KEY,
                name TEXT NOT NULL,
                birth_year INTEGER NOT NULL,
                avatar_url TEXT,
                created_by UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            """
            CREATE TABLE child_guardians (
                child_id UUID NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                user_id UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                accepted BOOLEAN NOT NULL,
                since TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (child_id, user_id)
            )
            """,
            "CREATE INDEX child_guardians_by_user ON child_guardians(user_id, child_id)",
            """
            CREATE TABLE post_children (
                post_id UUID NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                child_id UUID NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                PRIMARY KEY (post_id, child_id)
            )
            """,
            "CREATE INDEX post_children_by_child ON post_children(child_id, post_id)",
        ])
}
