import PostgresNIO

extension PostgresMigrations {
    // Triggers keep the count of all a post's kudos, so no write path can leave it behind; a read
    // subtracts only the kudos of the few people it must hide (`PostgresPostSQL.kudosCount`). Counting
    // at every read cost one giver lookup and two block probes per kudos. A narrow table of its own:
    // updating a column of posts would write a new version of the whole post, and of its entries in every
    // index on posts whenever the page had no room for the new version.
    static let kudosCounted = PostgresMigration(
        name: "2026-11-24 kudos counted",
        statements: [
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
    )
}
