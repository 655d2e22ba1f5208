/// The token store's statements that both databases write alike.
public enum TokenSQL {
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
