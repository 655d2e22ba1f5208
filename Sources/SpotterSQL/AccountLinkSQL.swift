/// The account link store's statements both databases write alike. Each uses a link its own way (SQLite's one
/// writer reads it and then marks it; PostgreSQL marks it in one conditional statement, so of two concurrent
/// uses exactly one gets the row back).
public enum AccountLinkSQL {
    public static let insert = SQLStatement(
        """
        INSERT INTO account_links (hash, user_id, purpose, new_email, created_at, expires_at, used_at)
        VALUES (\(bind: "hash"), \(bind: "user"), \(bind: "purpose"), \(bind: "newEmail"), \(bind: "createdAt"), \(
            bind: "expiresAt"), \(bind: "usedAt"))
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
