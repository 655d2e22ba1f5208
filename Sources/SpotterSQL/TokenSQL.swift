/// The token store's statements that both databases write alike. A statement that reports whether it changed a
/// row returns one on PostgreSQL, which reads it; SQLite reads its changes count.
public enum TokenSQL {
    public static let insert = SQLStatement(
        """
        INSERT INTO tokens (hash, user_id, family, kind, created_at, expires_at, used_at, revoked_at)
        VALUES (\(bind: "hash"), \(bind: "user"), \(bind: "family"), \(bind: "kind"), \(bind: "createdAt"), \(
            bind: "expiresAt"), \(bind: "usedAt"), \(bind: "revokedAt"))
        """)

    /// Atomic: of two concurrent refreshes exactly one marks the token used.
    public static let markUsed = SQLStatement(
        """
        UPDATE tokens SET used_at = \(bind: "at")
        WHERE hash = \(bind: "hash") AND used_at IS NULL AND revoked_at IS NULL\(sqlite: "", postgres: "\nRETURNING hash")
        """)

    public static let revokeFamily = SQLStatement(
        "UPDATE tokens SET revoked_at = \(bind: "at") WHERE family = \(bind: "family") AND revoked_at IS NULL")

    /// Returns the families it revoked.
    public static let revokeOtherFamilies = SQLStatement(
        """
        UPDATE tokens SET revoked_at = \(bind: "at")
        WHERE user_id = \(bind: "user") AND family <> \(bind: "family") AND revoked_at IS NULL
        RETURNING family
        """)

    public static let recordLogin = SQLStatement(
        """
        INSERT INTO login_devices (family, user_id, user_agent, address, created_at)
        VALUES (\(bind: "family"), \(bind: "user"), \(bind: "userAgent"), \(bind: "address"), \(bind: "at"))
        ON CONFLICT (family) DO NOTHING
        """)

    /// PostgreSQL counts the rows it returns; SQLite its changes.
    public static let deleteExpired = SQLStatement(
        "DELETE FROM tokens WHERE expires_at < \(bind: "before")\(sqlite: "", postgres: " RETURNING hash")")

    /// A login whose last token is gone is over: what it signed in from goes with it.
    public static let deleteEndedLogins = SQLStatement(
        "DELETE FROM login_devices WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE tokens.family = login_devices.family)")

    /// A person's signed-in sessions (token families with a live refresh token), the most recently active
    /// first, each with the device it signed in from.
    public static let activeLogins = SQLStatement(
        """
        SELECT l.family, l.started, l.active, d.user_agent, d.address FROM (
            SELECT family, MIN(created_at) AS started, MAX(created_at) AS active FROM tokens
            WHERE user_id = \(bind: "user") GROUP BY family
            HAVING \(sqlite: "SUM(", postgres: "bool_or(")kind = 'refresh' AND used_at IS NULL AND revoked_at IS NULL \
        AND expires_at > \(bind: "now")\(sqlite: ") > 0", postgres: ")")
            ORDER BY MAX(created_at) DESC LIMIT \(bind: "limit")
        ) AS l
        LEFT JOIN login_devices AS d ON d.family = l.family AND d.user_id = \(bind: "user")
        ORDER BY l.active DESC
        """)
}
