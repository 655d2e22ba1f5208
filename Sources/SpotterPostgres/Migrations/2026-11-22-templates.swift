import PostgresNIO

extension PostgresMigrations {
    static let templates = PostgresMigration(
        name: "2026-11-22 templates",
        statements: [
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
    )
}
