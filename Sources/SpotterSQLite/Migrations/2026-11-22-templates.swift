import GRDB

extension SQLiteMigrations {
    static let templates = SQLiteMigration(name: "2026-11-22 templates") { db in
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
}
