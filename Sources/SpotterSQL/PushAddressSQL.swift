/// The push address store's statements, on both databases. A statement that reports whether it changed a row
/// returns one on PostgreSQL, which reads it; SQLite reads its changes count.
public enum PushAddressSQL {
    public static let rememberDevice = SQLStatement(
        """
        INSERT INTO known_devices (user_id, device, first_seen) VALUES (\(bind: "user"), \(bind: "device"), \(
            bind: "at"))
        ON CONFLICT DO NOTHING\(sqlite: "", postgres: " RETURNING 1")
        """)

    /// A token moves to whoever registered it last: a phone passed on must not keep the old owner's pushes.
    public static let addDevice = SQLStatement(
        """
        INSERT INTO push_devices (token, user_id, created_at) VALUES (\(bind: "token"), \(bind: "user"), \(
            bind: "at"))
        ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, created_at = excluded.created_at
        """)

    public static let removeDevice = SQLStatement(
        """
        DELETE FROM push_devices WHERE token = \(bind: "token") AND user_id = \(bind: "user")\(
            sqlite: "", postgres: " RETURNING 1")
        """)

    public static let markInApp = SQLStatement(
        """
        INSERT INTO in_app (user_id, until) VALUES (\(bind: "user"), \(bind: "until"))
        ON CONFLICT (user_id) DO UPDATE SET until = excluded.until
        """)

    public static let leftApp = SQLStatement("DELETE FROM in_app WHERE user_id = \(bind: "user")")

    public static let isInApp = SQLStatement(
        "SELECT 1 FROM in_app WHERE user_id = \(bind: "user") AND until >= \(bind: "at")")

    public static let devices = SQLStatement(
        "SELECT token FROM push_devices WHERE user_id = \(bind: "user") ORDER BY created_at")

    public static let addWebPush = SQLStatement(
        """
        INSERT INTO web_push_subscriptions (endpoint, user_id, p256dh, auth, created_at)
        VALUES (\(bind: "endpoint"), \(bind: "user"), \(bind: "p256dh"), \(bind: "auth"), \(bind: "at"))
        ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
            auth = excluded.auth, created_at = excluded.created_at
        """)

    public static let removeWebPush = SQLStatement(
        """
        DELETE FROM web_push_subscriptions WHERE endpoint = \(bind: "endpoint") AND user_id = \(bind: "user")\(
            sqlite: "", postgres: " RETURNING 1")
        """)

    public static let webPushSubscriptions = SQLStatement(
        """
        SELECT endpoint, p256dh, auth FROM web_push_subscriptions WHERE user_id = \(bind: "user")
        ORDER BY created_at
        """)

    /// A refused address, gone for whoever held it.
    public static let pruneDevice = SQLStatement("DELETE FROM push_devices WHERE token = \(bind: "token")")

    public static let pruneWebPush = SQLStatement(
        "DELETE FROM web_push_subscriptions WHERE endpoint = \(bind: "endpoint")")
}
