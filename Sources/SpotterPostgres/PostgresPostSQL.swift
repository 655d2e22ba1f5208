import Foundation
import PostgresNIO

/// SQL fragments the PostgreSQL post queries share. The viewer is always bind `$1` (NULL when nobody is
/// signed in), so fragments can use it any number of times; each expects `p` (posts) joined with `u`.
enum PostgresPostSQL {
    static let viewer = "$1::uuid"

    /// `VisibilityPolicy.canSee`, in SQL, for posts (or templates, which share the columns) aliased `p`
    /// with their author aliased `u`.
    static let visible = visible(post: "p", author: "u")

    /// `visible` and, for a group post, `VisibilityPolicy.isListed`'s group half: what every list of posts but
    /// a group's own feed reads (see the SQLite twin).
    static let listed = visible(post: "p", author: "u", groups: .members)

    /// `visible` for templates, which go to no group.
    static let visibleTemplate = visible(post: "p", author: "u", groups: .none)

    /// Whom a group post opens to beyond its author (see the SQLite twin): nobody, its readers (members, and
    /// anyone not banned for an open group), or its members. Each is one probe of `group_members`'s key.
    enum GroupReach {
        case none, readers, members
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
                                   WHERE gm.group_id = g.id AND gm.user_id = \(viewer))
                               WHEN 'owner' THEN TRUE WHEN 'admin' THEN TRUE WHEN 'member' THEN TRUE
                               WHEN 'banned' THEN FALSE
                               ELSE g.access = 'open' END))
                """
            case .members:
                """

                   OR (\(p).group_id IS NOT NULL AND EXISTS (SELECT 1 FROM group_members gm
                       WHERE gm.group_id = \(p).group_id AND gm.user_id = \(viewer)
                         AND gm.standing IN ('owner', 'admin', 'member')))
                """
            }
        return """
            \(p).deleted_at IS NULL AND (
              \(p).author_id = \(viewer) OR (
                \(u).suspended_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM blocks b
                                WHERE (b.blocker_id = \(viewer) AND b.blocked_id = \(p).author_id)
                                   OR (b.blocker_id = \(p).author_id AND b.blocked_id = \(viewer)))
                AND ((\(p).visibility = 'public' AND \(u).privacy <> 'private')
                     OR (\(p).visibility <> 'private'
                         AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(viewer)
                                     AND f.followee_id = \(p).author_id AND f.state = 'accepted'))\(group))))
            """
    }

    /// How many of the author's posts `visible` lets the viewer see, from the counts kept in `user_counts`
    /// (see the SQLite twin for the rule). `author` is the author's placeholder.
    static func visiblePostsCount(author: String) -> String {
        """
        SELECT CASE
          WHEN u.id = \(viewer) THEN c.public_posts + c.followers_posts + c.private_posts
          WHEN u.suspended_at IS NOT NULL OR EXISTS (SELECT 1 FROM blocks b
               WHERE (b.blocker_id = \(viewer) AND b.blocked_id = u.id)
                  OR (b.blocker_id = u.id AND b.blocked_id = \(viewer))) THEN 0
          WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(viewer) AND f.followee_id = u.id
                       AND f.state = 'accepted') THEN c.public_posts + c.followers_posts
          WHEN u.privacy <> 'private' THEN c.public_posts
          ELSE 0 END
        FROM users u JOIN user_counts c ON c.user_id = u.id WHERE u.id = \(author)
        """
    }

    static let notMuted = """
        NOT EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = \(viewer) AND m.muted_id = p.author_id)
        """

    /// A person (alias) the viewer may see in lists: not suspended, not blocked either way.
    static func listable(_ alias: String) -> String {
        """
        \(alias).suspended_at IS NULL AND NOT EXISTS (SELECT 1 FROM blocks b
            WHERE (b.blocker_id = \(viewer) AND b.blocked_id = \(alias).id)
               OR (b.blocker_id = \(alias).id AND b.blocked_id = \(viewer)))
        """
    }

    /// A comment the viewer may see (see the SQLite twin for the rule).
    static func visibleComment(_ c: String) -> String {
        """
        \(c).deleted_at IS NULL AND \(c).author_id NOT IN (\(unlisted))
        AND (\(c).parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
             WHERE pc.id = \(c).parent_id AND pc.deleted_at IS NULL AND pc.author_id NOT IN (\(unlisted))))
        """
    }

    /// `Post.kudosCount`: the kudos of people the viewer may list. Triggers keep the count of all a post's
    /// kudos in `post_counts`; this takes away those of people not `listable`, a small set, so a post's count
    /// costs the same however many kudos it has (see the SQLite twin).
    static let kudosCount = """
        (COALESCE((SELECT kudos FROM post_counts WHERE post_id = p.id), 0)
         - (SELECT COUNT(*) FROM kudos k WHERE k.post_id = p.id AND k.user_id IN (\(unlisted))))
        """

    /// A comment anyone may see but for who wrote it or its parent (see the SQLite twin).
    static func countedComment(_ c: String) -> String {
        """
        \(c).deleted_at IS NULL AND (\(c).parent_id IS NULL OR EXISTS (SELECT 1 FROM comments pc
            WHERE pc.id = \(c).parent_id AND pc.deleted_at IS NULL))
        """
    }

    /// `Post.commentsCount`: the kept count of counted comments less those the viewer may not see for who
    /// wrote them or their parent, a small set, so a post's count costs the same however many comments it has
    /// (see the SQLite twin). `SUM` of counts is `numeric` here; the cast keeps the column a `bigint`.
    static let commentsCount = """
        COALESCE((SELECT n.comments
            - (SELECT COUNT(*) FROM comments c
               WHERE c.post_id = p.id AND c.author_id IN (\(unlisted)) AND \(countedComment("c")))
            - COALESCE((SELECT SUM((SELECT COUNT(*) FROM comments r WHERE r.parent_id = pc.id
                                    AND r.deleted_at IS NULL AND r.author_id NOT IN (\(unlisted))))::bigint
                        FROM comments pc
                        WHERE pc.post_id = p.id AND pc.author_id IN (\(unlisted)) AND pc.deleted_at IS NULL), 0)
            FROM post_counts n WHERE n.post_id = p.id AND n.comments > 0), 0)
        """

    /// The people `listable` leaves out for the viewer: suspended, or in a block with the viewer either way.
    /// It never holds NULL (ids and both ends of a block are `NOT NULL`), so `NOT IN` it is safe.
    static let unlisted = """
        SELECT id FROM users WHERE suspended_at IS NOT NULL
        UNION SELECT blocked_id FROM blocks WHERE blocker_id = \(viewer)
        UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(viewer)
        """

    static let columns = """
        p.id, p.kind, p.text, p.visibility, p.workout, p.records, p.hashtags, p.mentions, p.created_at, p.edited_at,
        u.id, u.username, u.display_name, u.avatar_url,
        \(kudosCount),
        \(commentsCount),
        EXISTS (SELECT 1 FROM kudos k WHERE k.post_id = p.id AND k.user_id = \(viewer)),
        p.media, p.group_id, (SELECT g.name FROM groups g WHERE g.id = p.group_id),
        CASE WHEN p.group_id IS NULL THEN NULL ELSE
          (SELECT json_agg(json_build_object('id', c.id, 'name', c.name))::text
           FROM post_children pc JOIN children c ON c.id = pc.child_id WHERE pc.post_id = p.id) END,
        p.sealed
        """

    /// How many columns `columns` selects: a query's extra columns come after them.
    static let columnCount = 22

    /// Posts that name no child: search and hashtag feeds list nothing else (`ChildSafetyPolicy`).
    static let namesNoChild = "NOT EXISTS (SELECT 1 FROM post_children pc WHERE pc.post_id = p.id)"

    /// A query whose SQL was assembled from the fragments above and whose binds start with the viewer.
    struct Builder {
        private(set) var binds = PostgresBindings()
        private var count = 1

        init(viewer: UUID?) {
            binds.append(viewer)
        }

        /// Adds a bind and returns its placeholder.
        mutating func bind(_ value: some PostgresThrowingDynamicTypeEncodable) throws -> String {
            try binds.append(value)
            count += 1
            return "$\(count)"
        }

        func query(_ sql: String) -> PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
    }
}
