import PostgresNIO

extension PostgresMigrations {
    static let search = PostgresMigration(
        name: "2026-11-22 search",
        statements: [
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
    )
}
