/// The SQL fragments every post query shares, on both databases. Each expects `p` (posts) joined with `u` (its
/// author) and binds the viewer as `viewer` (NULL when nobody is signed in).
public enum PostSQL {
    /// The viewer's bind; PostgreSQL is told its type, for `IS NULL` tests and prepared statements.
    static let viewer: SQLText = "\(bind: SQLText.viewer, as: "uuid")"

    /// `VisibilityPolicy.canSee`, in SQL, for posts (or templates, which share the columns) aliased `p`
    /// with their author aliased `u`. `visiblePostsCount` applies the same rule to kept counts: change both.
    public static let visible = visible(post: "p", author: "u")

    /// `visible` and, for a group post, `VisibilityPolicy.isListed`'s group half: what every list of posts but
    /// a group's own feed reads (Following, Global, a hashtag, search, a profile). A group post is listed only
    /// for its author and the group's members.
    public static let listed = visible(post: "p", author: "u", groups: .members)

    /// `visible` for templates, which go to no group.
    public static let visibleTemplate = visible(post: "p", author: "u", groups: .none)

    /// Whom a group post opens to beyond its author.
    public enum GroupReach: Sendable {
        /// Nobody: templates go to no group.
        case none
        /// Whoever may read it (`canSee`): the group's members, and anyone the group did not ban for an open
        /// group. The viewer's standing is one probe of `group_members`'s primary key.
        case readers
        /// The group's members only (`canSee` and `isListed`): one probe of `group_members`'s primary key.
        /// A member's row means the group stands: deleting a group ends every membership in the same
        /// transaction that tombstones its posts.
        case members
    }

    /// `visible` for other aliases (a subquery over posts inside a query over something else). A group post is
    /// stored `private` (only its author by the first branches) and opened to its group by the last one; a
    /// post without a group pays one NULL test for it.
    public static func visible(post p: String, author u: String, groups: GroupReach = .readers) -> SQLText {
        let group: SQLText =
            switch groups {
            case .none: ""
            case .readers:
                """

                   OR (\(raw: p).group_id IS NOT NULL AND EXISTS (SELECT 1 FROM groups g
                       WHERE g.id = \(raw: p).group_id AND g.deleted_at IS NULL
                         AND CASE (SELECT gm.standing FROM group_members gm
                                   WHERE gm.group_id = g.id AND gm.user_id = \(viewer))
                               WHEN 'owner' THEN TRUE WHEN 'admin' THEN TRUE WHEN 'member' THEN TRUE
                               WHEN 'banned' THEN FALSE
                               ELSE g.access = 'open' END))
                """
            case .members:
                """

                   OR (\(raw: p).group_id IS NOT NULL AND EXISTS (SELECT 1 FROM group_members gm
                       WHERE gm.group_id = \(raw: p).group_id AND gm.user_id = \(viewer)
                         AND gm.standing IN ('owner', 'admin', 'member')))
                """
            }
        return """
            \(raw: p).deleted_at IS NULL AND (
              \(raw: p).author_id = \(viewer) OR (
                \(raw: u).suspended_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM blocks b
                                WHERE (b.blocker_id = \(viewer) AND b.blocked_id = \(raw: p).author_id)
                                   OR (b.blocker_id = \(raw: p).author_id AND b.blocked_id = \(viewer)))
                AND ((\(raw: p).visibility = 'public' AND \(raw: u).privacy <> 'private')
                     OR (\(raw: p).visibility <> 'private'
                         AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(viewer)
                                     AND f.followee_id = \(raw: p).author_id AND f.state = 'accepted'))\(group))))
            """
    }

    /// How many of `author`'s posts `visible` lets the viewer see, from the counts triggers keep per person and
    /// visibility in `user_counts`, instead of reading every post. For one author `visible` depends on the
    /// post only through its visibility: the author sees all three kinds; someone suspended or in a block
    /// either way, none; an accepted follower, public and followers-only; anyone else, public, unless the
    /// account is private. A person with no row has no posts.
    public static let visiblePostsCount: SQLText = """
        SELECT CASE
          WHEN u.id = \(viewer) THEN c.public_posts + c.followers_posts + c.private_posts
          WHEN u.suspended_at IS NOT NULL OR EXISTS (SELECT 1 FROM blocks b
               WHERE (b.blocker_id = \(viewer) AND b.blocked_id = u.id)
                  OR (b.blocker_id = u.id AND b.blocked_id = \(viewer))) THEN 0
          WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(viewer) AND f.followee_id = u.id
                       AND f.state = 'accepted') THEN c.public_posts + c.followers_posts
          WHEN u.privacy <> 'private' THEN c.public_posts
          ELSE 0 END
        FROM users u JOIN user_counts c ON c.user_id = u.id WHERE u.id = \(bind: "author", as: "uuid")
        """

    /// Posts that name no child: search and hashtag feeds list nothing else (`ChildSafetyPolicy`).
    public static let namesNoChild: SQLText = "NOT EXISTS (SELECT 1 FROM post_children pc WHERE pc.post_id = p.id)"

    /// Posts whose author the viewer has not muted.
    public static let notMuted: SQLText = """
        NOT EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = \(viewer) AND m.muted_id = p.author_id)
        """

    /// A person (alias `alias`) who exists for the viewer (`PersonPolicy`'s `exists`): not suspended, not blocked
    /// either way.
    public static func listable(_ alias: String) -> SQLText {
        """
        \(raw: alias).suspended_at IS NULL AND NOT EXISTS (SELECT 1 FROM blocks b
            WHERE (b.blocker_id = \(viewer) AND b.blocked_id = \(raw: alias).id)
               OR (b.blocker_id = \(raw: alias).id AND b.blocked_id = \(viewer)))
        """
    }

    /// A comment (alias `c`) the viewer may see: not deleted, its author listable, and, for a reply, its
    /// parent visible too. Counts (`commentsCount`) and lists use the same rule, so they always agree.
    /// Authors are checked against the statement's one `unlisted` set, not looked up and probed for blocks
    /// one by one.
    public static func visibleComment(_ c: String) -> SQLText {
        """
        \(raw: c).deleted_at IS NULL AND \(raw: c).author_id NOT IN (\(unlisted))
        AND (\(raw: c).parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
             WHERE pc.id = \(raw: c).parent_id AND pc.deleted_at IS NULL AND pc.author_id NOT IN (\(unlisted))))
        """
    }

    /// `Post.kudosCount`: the kudos of people the viewer may list. Triggers keep the count of all a post's
    /// kudos in `post_counts`; this takes away those of people not `listable`: the suspended and those in a
    /// block with the viewer either way. That set is small, and each of its people costs one probe of the
    /// kudos key, so a post's count costs the same however many kudos it has. `kudosCountOfOne` says the same
    /// for one post: change both.
    public static let kudosCount: SQLText = """
        (COALESCE((SELECT kudos FROM post_counts WHERE post_id = p.id), 0)
         - (SELECT COUNT(*) FROM kudos k WHERE k.post_id = p.id AND k.user_id IN (\(unlisted))))
        """

    /// `kudosCount` for a statement about one post (the count a kudos answers with): the same count, with the
    /// `unlisted` people probed against the post's kudos key in three disjoint parts (suspended; not suspended
    /// and blocked by the viewer; not suspended and blocking the viewer but not blocked by them) instead of
    /// gathered into a temporary B-tree first. For a page of posts the one gathering serves every post; for
    /// one, building it cost more than the probes (callgrind, keyed kudos).
    public static let kudosCountOfOne: SQLText = """
        (COALESCE((SELECT kudos FROM post_counts WHERE post_id = p.id), 0)
         - (SELECT COUNT(*) FROM users s WHERE s.suspended_at IS NOT NULL
            AND EXISTS (SELECT 1 FROM kudos k WHERE k.post_id = p.id AND k.user_id = s.id))
         - (SELECT COUNT(*) FROM blocks b JOIN users s ON s.id = b.blocked_id
            WHERE b.blocker_id = \(viewer) AND s.suspended_at IS NULL
              AND EXISTS (SELECT 1 FROM kudos k WHERE k.post_id = p.id AND k.user_id = b.blocked_id))
         - (SELECT COUNT(*) FROM blocks b JOIN users s ON s.id = b.blocker_id
            WHERE b.blocked_id = \(viewer) AND s.suspended_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM blocks o WHERE o.blocker_id = \(viewer) AND o.blocked_id = b.blocker_id)
              AND EXISTS (SELECT 1 FROM kudos k WHERE k.post_id = p.id AND k.user_id = b.blocker_id)))
        """

    /// A comment (alias `c`) anyone may see but for who wrote it or its parent: not tombstoned, and a reply
    /// only under a parent that is not. Triggers keep the count of these per post (the migration "2026-11-24
    /// comments counted" writes the same rule).
    public static func countedComment(_ c: String) -> SQLText {
        """
        \(raw: c).deleted_at IS NULL AND (\(raw: c).parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
            WHERE pc.id = \(raw: c).parent_id AND pc.deleted_at IS NULL))
        """
    }

    /// `Post.commentsCount`: the comments `visibleComment` lets the viewer see, as the list shows them. Triggers
    /// keep the counted comments of each post in `post_counts`; this takes away those the viewer may not see
    /// for who wrote them: a counted comment of a person `unlisted`, and a counted reply of someone else under
    /// one of theirs. Each of that small set's people costs a probe of `comments_by_post_author`, and each of
    /// their comments one of `comments_by_parent` for its replies, so a post's count costs the same however
    /// many comments it has; a post with none is not probed at all. The replies are counted per comment, in a
    /// scalar subquery, not joined: as a join PostgreSQL merged them with every reply in the table. `SUM` of
    /// counts is `numeric` on PostgreSQL; the cast keeps the column a `bigint`.
    public static let commentsCount: SQLText = """
        COALESCE((SELECT n.comments
            - (SELECT COUNT(*) FROM comments c
               WHERE c.post_id = p.id AND c.author_id IN (\(unlisted)) AND \(countedComment("c")))
            - COALESCE((SELECT SUM((SELECT COUNT(*) FROM comments r WHERE r.parent_id = pc.id
                                    AND r.deleted_at IS NULL AND r.author_id NOT IN (\(unlisted))))\(
                                    sqlite: "", postgres: "::bigint")
                        FROM comments pc
                        WHERE pc.post_id = p.id AND pc.author_id IN (\(unlisted)) AND pc.deleted_at IS NULL), 0)
            FROM post_counts n WHERE n.post_id = p.id AND n.comments > 0), 0)
        """

    /// The people `listable` leaves out for the viewer: suspended (few: `users_suspended` holds them) or in a
    /// block with the viewer either way. It never holds NULL (ids and both ends of a block are `NOT NULL`),
    /// so `NOT IN` it is safe. Only ever the right side of `IN` or `NOT IN`, where a person twice counts once,
    /// so `UNION ALL`: a `UNION` made SQLite build a temporary B-tree to drop duplicates on every statement,
    /// beside the one `IN` builds (a keyed kudos read the post's kudos count through two of them).
    public static let unlisted: SQLText = """
        SELECT id FROM users WHERE suspended_at IS NOT NULL
        UNION ALL SELECT blocked_id FROM blocks WHERE blocker_id = \(viewer)
        UNION ALL SELECT blocker_id FROM blocks WHERE blocked_id = \(viewer)
        """
}
