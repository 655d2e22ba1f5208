import GRDB

extension SQLiteMigrations {
    /// Child profiles (`ChildProfileStore`): the children, who manages each (or is invited to), and which posts
    /// name which child. `post_children_by_child` finds what a child's deletion removes; the primary key answers
    /// "does this post name a child" for search and hashtag feeds, which leave such posts out.
    static let children = SQLiteMigration(name: "2026-11-29-children") { db in
        try db.execute(
            sql: """
                CREATE TABLE children (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    birth_year INTEGER NOT NULL,
                    avatar_url TEXT,
                    created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at REAL NOT NULL
                );
                CREATE TABLE child_guardians (
                    child_id TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    accepted INTEGER NOT NULL,
                    since REAL NOT NULL,
                    PRIMARY KEY (child_id, user_id)
                ) WITHOUT ROWID;
                CREATE INDEX child_guardians_by_user ON child_guardians(user_id, child_id);
                CREATE TABLE post_children (
                    post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                    child_id TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                    PRIMARY KEY (post_id, child_id)
                ) WITHOUT ROWID;
                CREATE INDEX post_children_by_child ON post_children(child_id, post_id);
                """)
    }
}
