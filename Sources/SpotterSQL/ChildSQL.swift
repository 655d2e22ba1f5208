/// The child profile store's statements, on both databases. SQLite stores a flag as 0 or 1, PostgreSQL as a
/// boolean; a statement that reports whether it changed a row returns one on PostgreSQL, which reads it, and
/// SQLite reads its changes count.
public enum ChildSQL {
    public static let columns: SQLText = "c.id, c.name, c.birth_year, c.avatar_url, c.created_by, c.created_at"

    private static let accepted: SQLText = "\(sqlite: "g.accepted = 1", postgres: "g.accepted")"
    private static let invited: SQLText = "\(sqlite: "g.accepted = 0", postgres: "NOT g.accepted")"

    public static let create = SQLStatement(
        """
        INSERT INTO children (id, name, birth_year, avatar_url, created_by, created_at)
        VALUES (\(bind: "id"), \(bind: "name"), \(bind: "birthYear"), \(bind: "avatarURL"), \(bind: "by"), \(
            bind: "at"))
        """)

    /// Whoever makes a profile is its first guardian, accepted.
    public static let addCreator = SQLStatement(
        """
        INSERT INTO child_guardians (child_id, user_id, accepted, since)
        VALUES (\(bind: "child"), \(bind: "user"), \(sqlite: "1", postgres: "TRUE"), \(bind: "at"))
        """)

    public static let find = SQLStatement("SELECT \(columns) FROM children c WHERE c.id = \(bind: "id")")

    public static let update = SQLStatement(
        """
        UPDATE children SET name = \(bind: "name"), birth_year = \(bind: "birthYear"), avatar_url = \(
            bind: "avatarURL")
        WHERE id = \(bind: "id")
        """)

    /// The posts that name the child, whose media, posts and sealed comments go with the profile.
    private static let named: SQLText = "SELECT post_id FROM post_children WHERE child_id = \(bind: "child")"

    public static let discardNamedMedia = SQLStatement(
        """
        UPDATE media SET discarded_at = \(bind: "at")
        WHERE post_id IN (\(named)) AND discarded_at IS NULL
        """)

    public static let tombstoneNamedPosts = SQLStatement(
        "UPDATE posts SET deleted_at = \(bind: "at"), sealed = NULL WHERE id IN (\(named)) AND deleted_at IS NULL")

    public static let unsealNamedComments = SQLStatement(
        "UPDATE comments SET sealed = NULL WHERE sealed IS NOT NULL AND post_id IN (\(named))")

    public static let delete = SQLStatement("DELETE FROM children WHERE id = \(bind: "child")")

    /// The children a person is an accepted guardian of, by name.
    public static let children = SQLStatement(
        """
        SELECT \(columns) FROM child_guardians g JOIN children c ON c.id = g.child_id
        WHERE g.user_id = \(bind: "user") AND \(accepted) ORDER BY c.name, c.id
        """)

    /// The children a person is invited to guard and has not accepted yet, by name.
    public static let invitations = SQLStatement(
        """
        SELECT \(columns) FROM child_guardians g JOIN children c ON c.id = g.child_id
        WHERE g.user_id = \(bind: "user") AND \(invited) ORDER BY c.name, c.id
        """)

    public static let guardians = SQLStatement(
        "SELECT user_id, accepted FROM child_guardians WHERE child_id = \(bind: "child")")

    public static let invite = SQLStatement(
        """
        INSERT INTO child_guardians (child_id, user_id, accepted, since)
        VALUES (\(bind: "child"), \(bind: "user"), \(sqlite: "0", postgres: "FALSE"), \(bind: "at"))
        ON CONFLICT (child_id, user_id) DO NOTHING
        """)

    public static let accept = SQLStatement(
        """
        UPDATE child_guardians SET accepted = \(sqlite: "1", postgres: "TRUE")
        WHERE child_id = \(bind: "child") AND user_id = \(bind: "user") AND \(
            sqlite: "accepted = 0", postgres: "NOT accepted RETURNING user_id")
        """)

    public static let removeGuardian = SQLStatement(
        "DELETE FROM child_guardians WHERE child_id = \(bind: "child") AND user_id = \(bind: "user")")

    public static let groupHoldsChildContent = SQLStatement(
        """
        SELECT EXISTS (SELECT 1 FROM posts p JOIN post_children pc ON pc.post_id = p.id
                       WHERE p.group_id = \(bind: "group") AND p.deleted_at IS NULL)
        """)
}
