/// The group store's statements, on both databases.
public enum GroupSQL {
    public static let columns: SQLText = """
        g.id, g.name, g.description, g.avatar_url, g.time_zone, g.access, g.owner_id, g.member_count, g.created_at,
        g.encrypted
        """

    /// The standings of a group's members (not those requested, invited or banned).
    public static let memberStandings: SQLText = "('owner', 'admin', 'member')"

    public static let invitationColumns: SQLText = """
        id, group_id, invited_by, invitee_id, code_hash, expires_at, max_uses, uses, revoked_at, created_at
        """

    public static let create = SQLStatement(
        """
        INSERT INTO groups (id, name, name_folded, description, avatar_url, time_zone, access, owner_id,
                            created_at, encrypted)
        VALUES (\(bind: "id"), \(bind: "name"), \(bind: "folded"), \(bind: "description"), \(bind: "avatarURL"),
                \(bind: "timeZone"), \(bind: "access"), \(bind: "owner"), \(bind: "createdAt"), \(bind: "encrypted"))
        """)

    public static let find = SQLStatement(
        "SELECT \(columns) FROM groups g WHERE g.id = \(bind: "group") AND g.deleted_at IS NULL")

    public static let update = SQLStatement(
        """
        UPDATE groups SET name = \(bind: "name"), name_folded = \(bind: "folded"),
            description = \(bind: "description"), avatar_url = \(bind: "avatarURL"), time_zone = \(bind: "timeZone"),
            access = \(bind: "access")
        WHERE id = \(bind: "group")
        """)

    /// Deleting a group, in one transaction and this order: the group, its posts' photos, its posts, the
    /// ciphertext of an encrypted group's posts and comments, its memberships and its invitations. Each
    /// binds `group`, and `at` where it records when.
    public static let delete = [
        SQLStatement("UPDATE groups SET deleted_at = \(bind: "at") WHERE id = \(bind: "group") AND deleted_at IS NULL"),
        SQLStatement(
            """
            UPDATE media SET discarded_at = \(bind: "at")
            WHERE post_id IN (SELECT id FROM posts WHERE group_id = \(bind: "group") AND deleted_at IS NULL)
              AND discarded_at IS NULL
            """),
        SQLStatement(
            "UPDATE posts SET deleted_at = \(bind: "at") WHERE group_id = \(bind: "group") AND deleted_at IS NULL"),
        SQLStatement(
            """
            UPDATE comments SET sealed = NULL
            WHERE sealed IS NOT NULL AND post_id IN (SELECT id FROM posts WHERE group_id = \(bind: "group"))
            """),
        SQLStatement("UPDATE posts SET sealed = NULL WHERE group_id = \(bind: "group") AND sealed IS NOT NULL"),
        SQLStatement("DELETE FROM group_members WHERE group_id = \(bind: "group")"),
        SQLStatement(
            """
            UPDATE group_invitations SET revoked_at = \(bind: "at")
            WHERE group_id = \(bind: "group") AND revoked_at IS NULL
            """),
    ]

    public static let standing = SQLStatement(
        "SELECT standing FROM group_members WHERE group_id = \(bind: "group") AND user_id = \(bind: "user")")

    /// Sets a standing; `since` moves only when someone becomes a member (their join date stays when their
    /// role changes).
    public static let setStanding = SQLStatement(
        """
        INSERT INTO group_members (group_id, user_id, standing, since)
        VALUES (\(bind: "group"), \(bind: "user"), \(bind: "standing"), \(bind: "at"))
        ON CONFLICT (group_id, user_id) DO UPDATE SET standing = excluded.standing,
            since = CASE WHEN group_members.standing IN \(memberStandings)
                          AND excluded.standing IN \(memberStandings)
                         THEN group_members.since ELSE excluded.since END
        """)

    /// Returns the standing it removed.
    public static let removeMember = SQLStatement(
        """
        DELETE FROM group_members
        WHERE group_id = \(bind: "group") AND user_id = \(bind: "user") AND standing <> 'banned'
        RETURNING standing
        """)

    public static let unban = SQLStatement(
        """
        DELETE FROM group_members
        WHERE group_id = \(bind: "group") AND user_id = \(bind: "user") AND standing = 'banned'
        """)

    /// Handing a group to a new owner, in one transaction: the old owner becomes an admin.
    public static let transfer = [
        SQLStatement(
            "UPDATE group_members SET standing = 'admin' WHERE group_id = \(bind: "group") AND standing = 'owner'"),
        SQLStatement(
            """
            UPDATE group_members SET standing = 'owner'
            WHERE group_id = \(bind: "group") AND user_id = \(bind: "user")
            """),
        SQLStatement("UPDATE groups SET owner_id = \(bind: "user") WHERE id = \(bind: "group")"),
    ]

    /// A request to join, or an invitation (`standing`), unless the person already has a standing.
    public static let addStanding = SQLStatement(
        """
        INSERT INTO group_members (group_id, user_id, standing, since)
        VALUES (\(bind: "group"), \(bind: "user"), \(bind: "standing"), \(bind: "at"))
        ON CONFLICT (group_id, user_id) DO NOTHING
        """)

    /// The people with one standing (requested, banned), oldest first.
    public static let people = SQLStatement(
        """
        SELECT \(AccountSQL.columns), m.since FROM group_members m
        JOIN users ON users.id = m.user_id
        WHERE m.group_id = \(bind: "group") AND m.standing = \(bind: "standing")
          AND (\(bind: "withSuspended") OR users.suspended_at IS NULL)
        ORDER BY m.since, users.id
        """)

    /// A page of the members the viewer may list, by account id, past `cursor` (a condition on `users`).
    public static func members(cursor: SQLText) -> SQLText {
        """
        SELECT \(AccountSQL.columns), m.standing, m.since FROM group_members m
        JOIN users ON users.id = m.user_id
        WHERE m.group_id = \(bind: "group") AND m.standing IN \(memberStandings)
          AND \(PostSQL.listable("users")) \(cursor)
        ORDER BY users.id LIMIT \(bind: "limit")
        """
    }

    public static let memberRoles = SQLStatement(
        """
        SELECT user_id, standing FROM group_members
        WHERE group_id = \(bind: "group") AND standing IN \(memberStandings)
        """)

    public static let groupsOf = SQLStatement(
        """
        SELECT \(columns), m.standing FROM group_members m JOIN groups g ON g.id = m.group_id
        WHERE m.user_id = \(bind: "user") AND m.standing IN \(memberStandings) AND g.deleted_at IS NULL
        ORDER BY g.name_folded, g.id
        """)

    public static let requested = SQLStatement(
        """
        SELECT \(columns) FROM group_members m JOIN groups g ON g.id = m.group_id
        WHERE m.user_id = \(bind: "user") AND m.standing = 'requested' AND g.deleted_at IS NULL
        ORDER BY g.name_folded, g.id
        """)

    /// Groups anyone may find, the largest first, whose folded name holds the folded query.
    public static let discoverable = SQLStatement(
        """
        SELECT \(columns) FROM groups g
        WHERE g.deleted_at IS NULL AND g.access <> 'private'
          AND (\(bind: "query") = '' OR \(sqlite: "instr(g.name_folded, ", postgres: "strpos(g.name_folded, ")\(
            bind: "query")) > 0)
        ORDER BY g.member_count DESC, g.id LIMIT \(bind: "limit")
        """)

    public static let markSeen = SQLStatement(
        """
        UPDATE group_members SET seen_up_to = \(bind: "post")
        WHERE group_id = \(bind: "group") AND user_id = \(bind: "user")
          AND standing IN \(memberStandings)
          AND (seen_up_to IS NULL OR seen_up_to < \(bind: "post"))
        """)

    public static let seenMarker = SQLStatement(
        "SELECT seen_up_to FROM group_members WHERE group_id = \(bind: "group") AND user_id = \(bind: "user")")

    public static let insertInvitation = SQLStatement(
        """
        INSERT INTO group_invitations (id, group_id, invited_by, invitee_id, code_hash, expires_at, max_uses,
                                       created_at)
        VALUES (\(bind: "id"), \(bind: "group"), \(bind: "invitedBy"), \(bind: "invitee"), \(bind: "codeHash"),
                \(bind: "expiresAt"), \(bind: "maxUses"), \(bind: "createdAt"))
        """)

    public static let invitationByID = SQLStatement(
        "SELECT \(invitationColumns) FROM group_invitations WHERE id = \(bind: "id")")

    public static let invitationByCode = SQLStatement(
        "SELECT \(invitationColumns) FROM group_invitations WHERE code_hash = \(bind: "codeHash")")

    public static let invitationsFor = SQLStatement(
        """
        SELECT \(invitationColumns) FROM group_invitations
        WHERE group_id = \(bind: "group") ORDER BY id DESC
        """)

    public static let invitationsTo = SQLStatement(
        """
        SELECT \(invitationColumns) FROM group_invitations
        WHERE invitee_id = \(bind: "user") AND revoked_at IS NULL ORDER BY id DESC
        """)

    /// Returns a row when the invitation had a use left.
    public static let use = SQLStatement(
        """
        UPDATE group_invitations SET uses = uses + 1
        WHERE id = \(bind: "id") AND (max_uses IS NULL OR uses < max_uses) RETURNING id
        """)

    public static let revoke = SQLStatement(
        """
        UPDATE group_invitations SET revoked_at = \(bind: "at") WHERE id = \(bind: "id") AND revoked_at IS NULL
        """)
}
