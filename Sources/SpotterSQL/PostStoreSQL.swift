/// The post store's statements, on both databases; the fragments they share are `PostSQL`'s.
public enum PostStoreSQL {
    public static let insert = SQLStatement(
        """
        INSERT INTO posts (id, author_id, kind, text, visibility, workout, records, hashtags, mentions,
                           template_id, text_hash, in_global, performed_at, created_at)
        VALUES (\(bind: "id"), \(bind: "author"), \(bind: "kind"), \(bind: "text"), \(bind: "visibility"),
                \(bind: "workout"), \(bind: "records"), \(bind: "hashtags"), \(bind: "mentions"),
                \(bind: "template"), \(bind: "textHash"), \(bind: "inGlobal"), \(bind: "performedAt"),
                \(bind: "createdAt"))
        """)

    /// A post's group, photos and sealed content, each in its own statement and only when there is one.
    public static let setGroup = SQLStatement("UPDATE posts SET group_id = \(bind: "group") WHERE id = \(bind: "id")")
    public static let setMedia = SQLStatement("UPDATE posts SET media = \(bind: "media") WHERE id = \(bind: "id")")
    public static let setSealed = SQLStatement("UPDATE posts SET sealed = \(bind: "sealed") WHERE id = \(bind: "id")")

    public static let update = SQLStatement(
        """
        UPDATE posts SET text = \(bind: "text"), visibility = \(bind: "visibility"), workout = \(bind: "workout"),
            records = \(bind: "records"), hashtags = \(bind: "hashtags"), mentions = \(bind: "mentions"),
            template_id = \(bind: "template"), text_hash = \(bind: "textHash"), in_global = \(bind: "inGlobal"),
            performed_at = \(bind: "performedAt"), edited_at = \(bind: "editedAt"), media = \(bind: "media")
        WHERE id = \(bind: "id")
        """)

    public static let deleteTags = SQLStatement("DELETE FROM post_tags WHERE post_id = \(bind: "id")")

    public static let tombstone = SQLStatement(
        "UPDATE posts SET deleted_at = \(bind: "at") WHERE id = \(bind: "id") AND deleted_at IS NULL")

    /// A post's stored row, in the order both adapters read it.
    public static let record = SQLStatement(
        """
        SELECT id, author_id, kind, text, visibility, workout, records, hashtags, mentions, text_hash,
               in_global, performed_at, created_at, edited_at, deleted_at, media, group_id
        FROM posts WHERE id = \(bind: "id")
        """)

    /// The post's author and kudos count, when the viewer may see it.
    public static let kudosTarget = SQLStatement(
        """
        SELECT u.id, \(PostSQL.kudosCountOfOne) FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.id = \(bind: "id") AND \(PostSQL.visible)
        """)

    /// One post, when the viewer may see it.
    public static let post = SQLStatement(
        """
        SELECT \(PostColumn.selectList) FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.id = \(bind: "id") AND \(PostSQL.visible)
        """)

    public static let kudosGivers = SQLStatement("SELECT user_id FROM kudos WHERE post_id = \(bind: "post")")

    /// A person's workouts the viewer may list, in the order they were performed, from `window` on (a
    /// condition on `p.performed_at`, each adapter's own as for `kudosGiversPage`).
    public static func workoutHistory(window: SQLText) -> SQLText {
        """
        SELECT p.performed_at, p.workout, p.records FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.author_id = \(bind: "author") AND p.kind = 'workout' AND \(PostSQL.listed)\(window)
        ORDER BY p.performed_at
        """
    }

    /// Several people's own workouts since a time, from `posts_workouts_by_performed`, whose entries carry the
    /// author, so only the asked-for authors' rows are read. SQLite is told the index: left to itself it reads
    /// each author's every post through `posts_by_author`, far more than the period's workouts it needs.
    public static let ownWorkouts = SQLStatement(
        """
        SELECT p.author_id, p.performed_at, p.workout, p.records FROM posts p\(
            sqlite: " INDEXED BY posts_workouts_by_performed", postgres: "")
        WHERE p.kind = 'workout' AND p.deleted_at IS NULL AND p.performed_at >= \(bind: "since")
          AND p.author_id \(SQLText.isAny(of: "authors"))
        ORDER BY p.performed_at
        """)

    /// The posts of `ids` that the viewer may see.
    public static let posts = SQLStatement(
        """
        SELECT \(PostColumn.selectList) FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.id \(SQLText.isAny(of: "ids")) AND \(PostSQL.visible)
        """)

    /// A page of a post's kudos givers whom the viewer may list, by id, past `after` (a condition on
    /// `users.id`, each adapter's own: SQLite tests an absent bound for NULL, PostgreSQL writes only a bound it
    /// has).
    public static func kudosGiversPage(after: SQLText) -> SQLText {
        """
        SELECT \(AccountSQL.columns) FROM kudos k JOIN users ON users.id = k.user_id
        WHERE k.post_id = \(bind: "post") AND \(PostSQL.listable("users"))\(after)
        ORDER BY users.id LIMIT \(bind: "limit")
        """
    }

    /// How many posts of a group newer than `after` (a condition on `p.id`, each adapter's own as above) by
    /// others the viewer may see, counting up to `cap`.
    public static func countNewer(after: SQLText) -> SQLText {
        """
        SELECT COUNT(*) FROM (
          SELECT 1 FROM posts p JOIN users u ON u.id = p.author_id
          WHERE p.group_id = \(bind: "group") AND p.author_id <> \(PostSQL.viewer)\(after)
            AND \(PostSQL.visible)
          LIMIT \(bind: "cap"))\(sqlite: "", postgres: " newer")
        """
    }

    /// Public posts since a time that the viewer may see, newest first, for ranking; after the post columns,
    /// `performed_at` and `author_featured`.
    public static let rankingCandidates = SQLStatement(
        """
        SELECT \(PostColumn.selectList), p.performed_at, u.featured_at IS NOT NULL AS author_featured
        FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.visibility = 'public' AND p.performed_at >= \(bind: "since") AND \(PostSQL.visible)
          AND \(PostSQL.notMuted)
        ORDER BY p.performed_at DESC LIMIT \(bind: "limit")
        """)

    /// A group's posts from `floor` on (ids are time-ordered, so the read walks `posts_by_group` only), with
    /// the kudos and comments of its members.
    public static let groupRankingCandidates = SQLStatement(
        """
        SELECT p.id, p.author_id, p.performed_at,
          (SELECT COUNT(*) FROM kudos k JOIN group_members gm ON gm.group_id = p.group_id AND gm.user_id = k.user_id
             AND gm.standing IN ('owner', 'admin', 'member') WHERE k.post_id = p.id),
          (SELECT COUNT(*) FROM comments c JOIN group_members gm ON gm.group_id = p.group_id
             AND gm.user_id = c.author_id AND gm.standing IN ('owner', 'admin', 'member')
           WHERE c.post_id = p.id AND c.deleted_at IS NULL)
        FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.group_id = \(bind: "group") AND p.id >= \(bind: "floor") AND \(PostSQL.visible)
        ORDER BY p.id DESC LIMIT \(bind: "limit")
        """)

    public static let recentTrainers = SQLStatement(
        """
        SELECT DISTINCT u.id, u.time_zone FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.kind = 'workout' AND p.deleted_at IS NULL AND p.performed_at >= \(bind: "since")
          AND u.suspended_at IS NULL
        """)

    public static let countPosts = SQLStatement(
        "SELECT COUNT(*) FROM posts WHERE author_id = \(bind: "author") AND created_at >= \(bind: "since")")

    public static let postTimes = SQLStatement(
        """
        SELECT created_at FROM posts WHERE author_id = \(bind: "author") AND created_at >= \(bind: "since")
        ORDER BY created_at
        """)

    public static let hasPost = SQLStatement(
        """
        SELECT EXISTS (SELECT 1 FROM posts WHERE author_id = \(bind: "author") AND text_hash = \(bind: "textHash")
                       AND created_at >= \(bind: "since") AND deleted_at IS NULL)
        """)

    /// Returns a row when it removed one.
    public static let removeKudos = SQLStatement(
        "DELETE FROM kudos WHERE post_id = \(bind: "post") AND user_id = \(bind: "user") RETURNING 1")

    public static let insertComment = SQLStatement(
        """
        INSERT INTO comments (id, post_id, parent_id, author_id, text, created_at)
        VALUES (\(bind: "id"), \(bind: "post"), \(bind: "parent"), \(bind: "author"), \(bind: "text"), \(
            bind: "createdAt"))
        """)

    public static let sealComment = SQLStatement(
        "UPDATE comments SET sealed = \(bind: "sealed") WHERE id = \(bind: "id")")

    /// A comment's stored row, in the order both adapters read it.
    public static let comment = SQLStatement(
        """
        SELECT id, post_id, parent_id, author_id, text, created_at, edited_at, deleted_at
        FROM comments WHERE id = \(bind: "id")
        """)

    public static let tombstoneComment = SQLStatement(
        "UPDATE comments SET deleted_at = \(bind: "at") WHERE id = \(bind: "id") AND deleted_at IS NULL")

    public static let editComment = SQLStatement(
        """
        UPDATE comments SET text = \(bind: "text"), edited_at = \(bind: "at")
        WHERE id = \(bind: "id") AND deleted_at IS NULL
        """)

    /// A page of a post's comments the viewer may see, oldest first, past `cursor` (a condition on `c`).
    public static func comments(cursor: SQLText) -> SQLText {
        """
        SELECT c.id, c.post_id, c.parent_id, c.text, c.created_at, u.id, u.username, u.display_name, u.avatar_url,
               c.edited_at, c.sealed
        FROM comments c JOIN users u ON u.id = c.author_id
        WHERE c.post_id = \(bind: "post") AND \(PostSQL.visibleComment("c")) \(cursor)
        ORDER BY c.id LIMIT \(bind: "limit")
        """
    }

    public static let personalBests = SQLStatement(
        "SELECT exercise_key, bests FROM personal_bests WHERE user_id = \(bind: "user")")

    public static let savePersonalBests = SQLStatement(
        """
        INSERT INTO personal_bests (user_id, exercise_key, bests) VALUES (\(bind: "user"), \(bind: "key"), \(
            bind: "bests"))
        ON CONFLICT (user_id, exercise_key) DO UPDATE SET bests = excluded.bests
        """)
}
