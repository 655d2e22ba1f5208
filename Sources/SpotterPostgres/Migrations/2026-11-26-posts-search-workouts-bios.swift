import PostgresNIO

extension PostgresMigrations {
    /// Search finds workouts by what they are called and what was done in them, not only by the post's text:
    /// "squat" finds "Squat day" and a workout with Back Squat in it. `post_search_text` is the one place that
    /// says what is searched; the index and `PostgresSearchStore` both use it, so the planner uses the index.
    /// People are found by the words of their bio too.
    static let postsSearchWorkouts = PostgresMigration(
        name: "2026-11-26-posts-search-workouts-bios",
        statements: [
            """
            CREATE FUNCTION post_search_text(post_text text, workout text) RETURNS text
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT post_text || ' ' || coalesce(workout::jsonb ->> 'title', '') || ' '
                    || coalesce(workout::jsonb ->> 'notes', '') || ' '
                    || coalesce((SELECT string_agg(e ->> 'name', ' ')
                                 FROM jsonb_array_elements(
                                     CASE jsonb_typeof(workout::jsonb -> 'exercises')
                                     WHEN 'array' THEN workout::jsonb -> 'exercises' ELSE '[]'::jsonb END) AS e), '')
            $$
            """,
            "DROP INDEX posts_text_search",
            """
            CREATE INDEX posts_search ON posts USING gin (to_tsvector('simple', post_search_text(text, workout)))
            """,
            "CREATE INDEX users_bio_search ON users USING gin (to_tsvector('simple', bio))",
        ]
    )
}
