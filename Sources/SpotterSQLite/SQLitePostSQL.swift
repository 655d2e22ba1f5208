/// SQL fragments the SQLite post queries share. Each expects `p` (posts) joined with `u` (its author) and a
/// `:viewer` argument (NULL when nobody is signed in).
enum SQLitePostSQL {
    /// `VisibilityPolicy.canSee`, in SQL, for posts (or templates, which share the columns) aliased `p`
    /// with their author aliased `u`. `visiblePostsCount` applies the same rule to kept counts: change both.
    static let visible = visible(post: "p", author: "u")

    /// `visible` and, for a group post, `VisibilityPolicy.isListed`'s group half: what every list of posts but
    /// a group's own feed reads (Following, Global, a hashtag, search, a profile). A group post is listed only
    /// for its author and the group's members.
    static let listed = visible(post: "p", author: "u", groups: .members)

    /// `visible` for templates, which go to no group.
    static let visibleTemplate = visible(post: "p", author: "u", groups: .none)

    /// Whom a group post opens to beyond its author.
    enum GroupReach {
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
    static func visible(post p: String, author u: String, groups: GroupReach = .readers) -> String {
        let group =
            switch groups {
            case .none: ""
            case .readers:
                """

                   OR (\(p).group_id IS NOT NULL AND EXISTS (SELECT 1 FROM groups g
                       WHERE g.id = \(p).group_id AND g.deleted_at IS NULL
                         AND CASE (SELECT gm.standing FROM group_members gm
                                   WHERE gm.group_id = g.id AND gm.user_id = :viewer)
                               WHEN 'owner' THEN TRUE WHEN 'admin' THEN TRUE WHEN 'member' THEN TRUE
                               WHEN 'banned' THEN FALSE
                               ELSE g.access = 'open' END))
                """
            case .members:
                """

                   OR (\(p).group_id IS NOT NULL AND EXISTS (SELECT 1 FROM group_members gm
                       WHERE gm.group_id = \(p).group_id AND gm.user_id = :viewer
                         AND gm.standing IN ('owner', 'admin', 'member')))
                """
            }
        return """
            \(p).deleted_at IS NULL AND (
              \(p).author_id = :viewer OR (
                \(u).suspended_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM blocks b
                                WHERE (b.blocker_id = :viewer AND b.blocked_id = \(p).author_id)
                                   OR (b.blocker_id = \(p).author_id AND b.blocked_id = :viewer))
                AND ((\(p).visibility = 'public' AND \(u).privacy <> 'private')
                     OR (\(p).visibility <> 'private'
                         AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :viewer
                                     AND f.followee_id = \(p).author_id AND f.state = 'accepted'))\(group))))
            """
    }

    /// How many of `:author`'s posts `visible` lets `:viewer` see, from the counts triggers keep per person and
    /// visibility in `user_counts`, instead of reading every post. For one author `visible` depends on the
    /// post only through its visibility: the author sees all three kinds; someone suspended or in a block
    /// either way, none; an accepted follower, public and followers-only; anyone else, public, unless the
    /// account is private. A person with no row has no posts.
    static let visiblePostsCount = """
        SELECT CASE
          WHEN u.id = :viewer THEN c.public_posts + c.followers_posts + c.private_posts
          WHEN u.suspended_at IS NOT NULL OR EXISTS (SELECT 1 FROM blocks b
               WHERE (b.blocker_id = :viewer AND b.blocked_id = u.id)
                  OR (b.blocker_id = u.id AND b.blocked_id = :viewer)) THEN 0
          WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :viewer AND f.followee_id = u.id
                       AND f.state = 'accepted') THEN c.public_posts + c.followers_posts
          WHEN u.privacy <> 'private' THEN c.public_posts
          ELSE 0 END
        FROM users u JOIN user_counts c ON c.user_id = u.id WHERE u.id = :author
        """

    /// Posts that name no child: search and hashtag feeds list nothing else (`ChildSafetyPolicy`).
    static let namesNoChild = "NOT EXISTS (SELECT 1 FROM post_children pc WHERE pc.post_id = p.id)"

    static let notMuted = """
        NOT EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = :viewer AND m.muted_id = p.author_id)
        """

    /// A person (column `column`) the viewer may see in lists: not suspended, not blocked either way.
    static func listable(_ alias: String) -> String {
        """
        \(alias).suspended_at IS NULL AND NOT EXISTS (SELECT 1 FROM blocks b
            WHERE (b.blocker_id = :viewer AND b.blocked_id = \(alias).id)
               OR (b.blocker_id = \(alias).id AND b.blocked_id = :viewer))
        """
    }

    /// A comment (alias `c`) the viewer may see: not deleted, its author listable, and, for a reply, its
    /// parent visible too. Counts (`commentsCount`) and lists use the same rule, so they always agree.
    /// Authors are checked against the statement's one `unlisted` set, not looked up and probed for blocks
    /// one by one.
    static func visibleComment(_ c: String) -> String {
        """
        \(c).deleted_at IS NULL AND \(c).author_id NOT IN (\(unlisted))
        AND (\(c).parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
             WHERE pc.id = \(c).parent_id AND pc.deleted_at IS NULL AND pc.author_id NOT IN (\(unlisted))))
        """
    }

    /// `Post.kudosCount`: the kudos of people the viewer may list. Triggers keep the count of all a post's
    /// kudos in `post_counts`; this takes away those of people not `listable`: the suspended and those in a
    /// block with the viewer either way. That set is small, and each of its people costs one probe of the
    /// kudos key, so a post's count costs the same however many kudos it has.
    static let kudosCount = """
        (COALESCE((SELECT kudos FROM post_counts WHERE post_id = p.id), 0)
         - (SELECT COUNT(*) FROM kudos k WHERE k.post_id = p.id AND k.user_id IN (\(unlisted))))
        """

    /// A comment (alias `c`) anyone may see but for who wrote it or its parent: not tombstoned, and a reply
    /// only under a parent that is not. Triggers keep the count of these per post (the migration "2026-11-24
    /// comments counted" writes the same rule).
    static func countedComment(_ c: String) -> String {
        """
        \(c).deleted_at IS NULL AND (\(c).parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
            WHERE pc.id = \(c).parent_id AND pc.deleted_at IS NULL))
        """
    }

    /// `Post.commentsCount`: the comments `visibleComment` lets the viewer see, as the list shows them. Triggers
    /// keep the counted comments of each post in `post_counts`; this takes away those the viewer may not see
    /// for who wrote them: a counted comment of a person `unlisted`, and a counted reply of someone else under
    /// one of theirs. Each of that small set's people costs a probe of `comments_by_post_author`, and each of
    /// their comments one of `comments_by_parent` for its replies, so a post's count costs the same however
    /// many comments it has; a post with none is not probed at all. The replies are counted per comment, in a
    /// scalar subquery, not joined: as a join PostgreSQL merged them with every reply in the table.
    static let commentsCount = """
        COALESCE((SELECT n.comments
            - (SELECT COUNT(*) FROM comments c
               WHERE c.post_id = p.id AND c.author_id IN (\(unlisted)) AND \(countedComment("c")))
            - COALESCE((SELECT SUM((SELECT COUNT(*) FROM comments r WHERE r.parent_id = pc.id
                                    AND r.deleted_at IS NULL AND r.author_id NOT IN (\(unlisted))))
                        FROM comments pc
                        WHERE pc.post_id = p.id AND pc.author_id IN (\(unlisted)) AND pc.deleted_at IS NULL), 0)
            FROM post_counts n WHERE n.post_id = p.id AND n.comments > 0), 0)
        """

    /// The people `listable` leaves out for the viewer: suspended (few: `users_suspended` holds them) or in a
    /// block with the viewer either way. It never holds NULL (ids and both ends of a block are `NOT NULL`),
    /// so `NOT IN` it is safe.
    static let unlisted = """
        SELECT id FROM users WHERE suspended_at IS NOT NULL
        UNION SELECT blocked_id FROM blocks WHERE blocker_id = :viewer
        UNION SELECT blocker_id FROM blocks WHERE blocked_id = :viewer
        """

    /// The columns `SQLitePostStore.post(from:)` reads, in order.
    /// A post row's columns as a feed reads them (post `p`, author `u`, for `:viewer`), in select order.
    enum Column: Int, SQLiteColumns {
        case id, kind, text, visibility, workout, records, hashtags, mentions, createdAt, editedAt
        case authorID, username, displayName, avatarURL, kudosCount, commentsCount, kudosedByMe, media
        case groupID, groupName, children, sealed

        var sql: String {
            switch self {
            case .id: "p.id"
            case .kind: "p.kind"
            case .text: "p.text"
            case .visibility: "p.visibility"
            case .workout: "p.workout"
            case .records: "p.records"
            case .hashtags: "p.hashtags"
            case .mentions: "p.mentions"
            case .createdAt: "p.created_at"
            case .editedAt: "p.edited_at"
            case .authorID: "u.id"
            case .username: "u.username"
            case .displayName: "u.display_name"
            case .avatarURL: "u.avatar_url"
            case .kudosCount: SQLitePostSQL.kudosCount
            case .commentsCount: SQLitePostSQL.commentsCount
            case .kudosedByMe: "EXISTS (SELECT 1 FROM kudos k WHERE k.post_id = p.id AND k.user_id = :viewer)"
            case .media: "p.media"
            case .groupID: "p.group_id"
            case .groupName: "(SELECT g.name FROM groups g WHERE g.id = p.group_id)"
            // Only a group post can name a child: others skip the read.
            case .children:
                """
                CASE WHEN p.group_id IS NULL THEN NULL ELSE
                  (SELECT json_group_array(json_object('id', c.id, 'name', c.name))
                   FROM post_children pc JOIN children c ON c.id = pc.child_id WHERE pc.post_id = p.id) END
                """
            case .sealed: "p.sealed"
            }
        }
    }

    static let columns = Column.selectList
}
