/// The follow, block and mute statements, on both databases.
public enum GraphSQL {
    /// The viewer's follow state towards `other`, whether `other` follows back, blocks and mutes.
    public static let relationship = SQLStatement(
        """
        SELECT
          (SELECT state FROM follows WHERE follower_id = \(bind: "viewer") AND followee_id = \(bind: "other")),
          EXISTS (SELECT 1 FROM follows WHERE follower_id = \(bind: "other") AND followee_id = \(bind: "viewer")
                  AND state = 'accepted'),
          EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(bind: "viewer") AND blocked_id = \(bind: "other")),
          EXISTS (SELECT 1 FROM mutes WHERE muter_id = \(bind: "viewer") AND muted_id = \(bind: "other"))
        """)

    /// `mayReach`'s rule over two expressions naming the recipient's and the actor's ids: the actor stands and
    /// neither blocks the other, and the recipient has not muted the actor.
    public static func reaches(recipient r: SQLText, actor a: SQLText) -> SQLText {
        """
        EXISTS (SELECT 1 FROM users WHERE id = \(a) AND suspended_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = \(r) AND blocked_id = \(a))
                                                OR (blocker_id = \(a) AND blocked_id = \(r)))
          AND NOT EXISTS (SELECT 1 FROM mutes WHERE muter_id = \(r) AND muted_id = \(a))
        """
    }

    public static let mayReach = SQLStatement(
        "SELECT \(reaches(recipient: "\(bind: "recipient", as: "uuid")", actor: "\(bind: "actor", as: "uuid")"))")

    public static let follow = SQLStatement(
        """
        INSERT INTO follows (follower_id, followee_id, state, created_at)
        VALUES (\(bind: "follower"), \(bind: "followee"), \(bind: "state"), \(bind: "at"))
        ON CONFLICT (follower_id, followee_id) DO NOTHING
        """)

    public static let followState = SQLStatement(
        "SELECT state FROM follows WHERE follower_id = \(bind: "follower") AND followee_id = \(bind: "followee")")

    /// Each changing statement returns a row when it changed one.
    public static let unfollow = SQLStatement(
        """
        DELETE FROM follows WHERE follower_id = \(bind: "follower") AND followee_id = \(bind: "followee")
        RETURNING 1
        """)

    public static let acceptFollow = SQLStatement(
        """
        UPDATE follows SET state = 'accepted'
        WHERE follower_id = \(bind: "follower") AND followee_id = \(bind: "followee") AND state = 'pending'
        RETURNING 1
        """)

    public static let acceptPendingFollows = SQLStatement(
        "UPDATE follows SET state = 'accepted' WHERE followee_id = \(bind: "followee") AND state = 'pending'")

    public static let block = SQLStatement(
        """
        INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (\(bind: "blocker"), \(bind: "blocked"), \(
            bind: "at"))
        ON CONFLICT DO NOTHING
        """)

    /// A block ends the follows between the two, both ways.
    public static let unfollowBothWays = SQLStatement(
        """
        DELETE FROM follows
        WHERE (follower_id = \(bind: "blocker") AND followee_id = \(bind: "blocked"))
           OR (follower_id = \(bind: "blocked") AND followee_id = \(bind: "blocker"))
        """)

    public static let unblock = SQLStatement(
        "DELETE FROM blocks WHERE blocker_id = \(bind: "blocker") AND blocked_id = \(bind: "blocked")")

    public static let mute = SQLStatement(
        """
        INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (\(bind: "muter"), \(bind: "muted"), \(bind: "at"))
        ON CONFLICT DO NOTHING
        """)

    public static let unmute = SQLStatement(
        "DELETE FROM mutes WHERE muter_id = \(bind: "muter") AND muted_id = \(bind: "muted")")

    public static let peopleInBlocks = SQLStatement("SELECT blocker_id FROM blocks UNION SELECT blocked_id FROM blocks")

    public static let blockedEitherWay = SQLStatement(
        """
        SELECT blocked_id FROM blocks WHERE blocker_id = \(bind: "user")
        UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(bind: "user")
        """)

    public static let muters = SQLStatement("SELECT muter_id FROM mutes WHERE muted_id = \(bind: "user")")

    public static let followerIDs = SQLStatement(
        "SELECT follower_id FROM follows WHERE followee_id = \(bind: "user") AND state = 'accepted'")

    public static let followedPrivateAccounts = SQLStatement(
        """
        SELECT f.followee_id FROM follows f JOIN users u ON u.id = f.followee_id
        WHERE f.follower_id = \(bind: "user") AND f.state = 'accepted' AND u.privacy = 'private'
        """)

    /// People to follow: not the user, standing, not followed yet, in no block with them; featured first,
    /// then the most followed.
    public static let suggestions = SQLStatement(
        """
        SELECT \(AccountSQL.columns) FROM users
        LEFT JOIN user_counts c ON c.user_id = users.id
        WHERE users.id <> \(bind: "user") AND users.suspended_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(bind: "user") AND f.followee_id = users.id)
          AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = \(bind: "user") AND b.blocked_id = users.id)
                                                  OR (b.blocker_id = users.id AND b.blocked_id = \(bind: "user")))
        ORDER BY users.featured_at IS NULL, COALESCE(c.followers, 0) DESC, users.id DESC
        LIMIT \(bind: "limit")
        """)

    /// A page of `table`'s rows owned by the user (blocks or mutes), newest first, past `cursor` (a condition
    /// on `r`). Table and column names come from the code, never from input.
    public static func restricted(table: String, owner: String, other: String, cursor: SQLText) -> SQLText {
        """
        SELECT \(AccountSQL.columns), r.created_at FROM \(raw: table) r
        JOIN users ON users.id = r.\(raw: other)
        WHERE r.\(raw: owner) = \(bind: "user") \(cursor)
        ORDER BY r.created_at DESC, r.\(raw: other) DESC
        LIMIT \(bind: "limit")
        """
    }

    /// A person's accepted follows both ways whose other end is not suspended. Triggers keep every accepted
    /// follow's count in `user_counts`; this takes away those of suspended people, probing the follow's key once
    /// for each of them, so a profile costs the same however many followers it has. On SQLite `CROSS JOIN`
    /// keeps the planner walking the few suspended, not the many followers.
    public static let counts = SQLStatement(
        """
        SELECT
          c.followers - (SELECT COUNT(*) FROM users s \(
              sqlite: "CROSS JOIN follows f", postgres: "JOIN follows f ON f.follower_id = s.id")
                         WHERE s.suspended_at IS NOT NULL\(sqlite: " AND f.follower_id = s.id", postgres: "")
                           AND f.followee_id = c.user_id AND f.state = 'accepted'),
          c.following - (SELECT COUNT(*) FROM users s \(
              sqlite: "CROSS JOIN follows f", postgres: "JOIN follows f ON f.followee_id = s.id")
                         WHERE s.suspended_at IS NOT NULL AND f.follower_id = c.user_id\(
              sqlite: " AND f.followee_id = s.id", postgres: "")
                           AND f.state = 'accepted')
        FROM user_counts c WHERE c.user_id = \(bind: "user")
        """)

    /// `follows`'s cursor: past the entry of `afterTime` and `afterID`.
    public static func followsAfter(other: String) -> SQLText {
        "AND (f.created_at, f.\(raw: other)) < (\(bind: "afterTime"), \(bind: "afterID"))"
    }

    /// A page of a person's followers or followees (`edge` the person's column, `other` theirs) whom the viewer
    /// may list, newest first, past `cursor` (a condition on `f`).
    public static func follows(edge: String, other: String, cursor: SQLText) -> SQLText {
        """
        SELECT \(AccountSQL.columns), f.created_at FROM follows f
        JOIN users ON users.id = f.\(raw: other)
        WHERE f.\(raw: edge) = \(bind: "user") AND f.state = \(bind: "state") AND \(PostSQL.listable("users"))
          \(cursor)
        ORDER BY f.created_at DESC, f.\(raw: other) DESC
        LIMIT \(bind: "limit")
        """
    }
}
