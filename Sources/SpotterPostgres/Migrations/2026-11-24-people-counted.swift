import PostgresNIO

extension PostgresMigrations {
    // As on SQLite (its migration of the same name says why): triggers keep each person's accepted
    // follows both ways and their posts not deleted, by visibility; reads take away suspended people's
    // follows and pick the visibility classes the viewer may see. Each change is counted by its delta
    // through one upsert.
    static let peopleCounted = PostgresMigration(
        name: "2026-11-24 people counted",
        statements: [
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
    )
}
