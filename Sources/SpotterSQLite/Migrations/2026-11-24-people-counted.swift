import GRDB

extension SQLiteMigrations {
    static let peopleCounted = SQLiteMigration(name: "2026-11-24 people counted") { db in
        // A profile counted its person's followers and following by reading every follow and its other
        // end's account, and their posts by reading every post with the viewer's visibility rule: its cost
        // grew with both, and the most followed people's profiles were the slowest. Triggers keep each
        // person's accepted follows both ways and their posts not deleted, by visibility; a read takes away
        // the follows of suspended people (few: `users_suspended`) and picks the visibility classes the viewer
        // may see (`SQLitePostSQL.visiblePostsCount`). Every change is counted by its delta through one upsert,
        // so rows appear when first needed and no write path (a follow, a request accepted, an unfollow,
        // a block's removal of follows, a post, an edit of its visibility, a deletion) can leave the
        // counts behind.
        try db.execute(
            sql: """
                CREATE TABLE user_counts (
                    user_id TEXT PRIMARY KEY NOT NULL,
                    followers INTEGER NOT NULL DEFAULT 0,
                    following INTEGER NOT NULL DEFAULT 0,
                    public_posts INTEGER NOT NULL DEFAULT 0,
                    followers_posts INTEGER NOT NULL DEFAULT 0,
                    private_posts INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                INSERT INTO user_counts (user_id, followers, following, public_posts, followers_posts, private_posts)
                SELECT id, 0, 0, 0, 0, 0 FROM users WHERE true;
                UPDATE user_counts SET
                  followers = (SELECT COUNT(*) FROM follows f
                               WHERE f.followee_id = user_counts.user_id AND f.state = 'accepted'),
                  following = (SELECT COUNT(*) FROM follows f
                               WHERE f.follower_id = user_counts.user_id AND f.state = 'accepted');
                UPDATE user_counts SET
                  public_posts = n.public_posts, followers_posts = n.followers_posts, private_posts = n.private_posts
                FROM (SELECT author_id, SUM(visibility = 'public') AS public_posts,
                             SUM(visibility = 'followers') AS followers_posts,
                             SUM(visibility = 'private') AS private_posts
                      FROM posts WHERE deleted_at IS NULL GROUP BY author_id) AS n
                WHERE n.author_id = user_counts.user_id;

                CREATE TRIGGER follows_counted AFTER INSERT ON follows WHEN NEW.state = 'accepted' BEGIN
                  INSERT INTO user_counts (user_id, followers) VALUES (NEW.followee_id, 1)
                  ON CONFLICT (user_id) DO UPDATE SET followers = followers + 1;
                  INSERT INTO user_counts (user_id, following) VALUES (NEW.follower_id, 1)
                  ON CONFLICT (user_id) DO UPDATE SET following = following + 1;
                END;
                CREATE TRIGGER follows_recounted AFTER UPDATE OF state ON follows
                WHEN (OLD.state = 'accepted') <> (NEW.state = 'accepted') BEGIN
                  INSERT INTO user_counts (user_id, followers)
                  VALUES (NEW.followee_id, CASE NEW.state WHEN 'accepted' THEN 1 ELSE -1 END)
                  ON CONFLICT (user_id) DO UPDATE SET followers = followers + excluded.followers;
                  INSERT INTO user_counts (user_id, following)
                  VALUES (NEW.follower_id, CASE NEW.state WHEN 'accepted' THEN 1 ELSE -1 END)
                  ON CONFLICT (user_id) DO UPDATE SET following = following + excluded.following;
                END;
                CREATE TRIGGER follows_uncounted AFTER DELETE ON follows WHEN OLD.state = 'accepted' BEGIN
                  UPDATE user_counts SET followers = followers - 1 WHERE user_id = OLD.followee_id;
                  UPDATE user_counts SET following = following - 1 WHERE user_id = OLD.follower_id;
                END;

                CREATE TRIGGER posts_counted AFTER INSERT ON posts WHEN NEW.deleted_at IS NULL BEGIN
                  INSERT INTO user_counts (user_id, public_posts, followers_posts, private_posts)
                  VALUES (NEW.author_id, NEW.visibility = 'public', NEW.visibility = 'followers',
                          NEW.visibility = 'private')
                  ON CONFLICT (user_id) DO UPDATE SET
                    public_posts = public_posts + excluded.public_posts,
                    followers_posts = followers_posts + excluded.followers_posts,
                    private_posts = private_posts + excluded.private_posts;
                END;
                CREATE TRIGGER posts_recounted AFTER UPDATE OF visibility, deleted_at ON posts
                WHEN OLD.visibility IS NOT NEW.visibility OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
                BEGIN
                  INSERT INTO user_counts (user_id, public_posts, followers_posts, private_posts)
                  VALUES (NEW.author_id,
                    (NEW.deleted_at IS NULL AND NEW.visibility = 'public')
                      - (OLD.deleted_at IS NULL AND OLD.visibility = 'public'),
                    (NEW.deleted_at IS NULL AND NEW.visibility = 'followers')
                      - (OLD.deleted_at IS NULL AND OLD.visibility = 'followers'),
                    (NEW.deleted_at IS NULL AND NEW.visibility = 'private')
                      - (OLD.deleted_at IS NULL AND OLD.visibility = 'private'))
                  ON CONFLICT (user_id) DO UPDATE SET
                    public_posts = public_posts + excluded.public_posts,
                    followers_posts = followers_posts + excluded.followers_posts,
                    private_posts = private_posts + excluded.private_posts;
                END;
                CREATE TRIGGER posts_uncounted AFTER DELETE ON posts WHEN OLD.deleted_at IS NULL BEGIN
                  UPDATE user_counts SET
                    public_posts = public_posts - (OLD.visibility = 'public'),
                    followers_posts = followers_posts - (OLD.visibility = 'followers'),
                    private_posts = private_posts - (OLD.visibility = 'private')
                  WHERE user_id = OLD.author_id;
                END;
                """)
    }
}
