/// The account link store's statements, on both databases. Each uses a link its own way (SQLite's one writer
/// reads it and then marks it; PostgreSQL marks it in one conditional statement, so of two concurrent uses
/// exactly one gets the row back), around the same test of a usable link.
public enum AccountLinkSQL {
    public static let insert = SQLStatement(
        """
        INSERT INTO account_links (hash, user_id, purpose, new_email, created_at, expires_at, used_at)
        VALUES (\(bind: "hash"), \(bind: "user"), \(bind: "purpose"), \(bind: "newEmail"), \(bind: "createdAt"), \(
            bind: "expiresAt"), \(bind: "usedAt"))
        """)

    /// A link of `hash` for `purpose` that is neither used nor expired at `at`.
    private static let usable: SQLText = """
        hash = \(bind: "hash") AND purpose = \(bind: "purpose") AND used_at IS NULL AND expires_at > \(bind: "at")
        """

    private static let columns: SQLText = "user_id, new_email, created_at, expires_at"

    /// SQLite's use: the link, read inside the writer that then marks it (`useAll`).
    public static let find = SQLStatement("SELECT \(columns) FROM account_links\nWHERE \(usable)")

    /// PostgreSQL's use: the link, marked in one conditional statement that returns it.
    public static let use = SQLStatement(
        """
        UPDATE account_links SET used_at = \(bind: "at")
        WHERE \(usable)
        RETURNING \(columns)
        """)

    /// Using a link uses up the person's other links of the same purpose.
    public static let useAll = SQLStatement(
        """
        UPDATE account_links SET used_at = \(bind: "at")
        WHERE user_id = \(bind: "user") AND purpose = \(bind: "purpose") AND used_at IS NULL
        """)

    /// PostgreSQL counts the rows it returns; SQLite its changes.
    public static let deleteExpired = SQLStatement(
        "DELETE FROM account_links WHERE expires_at < \(bind: "before")\(sqlite: "", postgres: " RETURNING hash")")
}
