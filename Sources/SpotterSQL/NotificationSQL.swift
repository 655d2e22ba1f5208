/// The notification store's statements, on both databases. Each database writes its own rule for which
/// notifications the recipient may still see (a fragment over `n` binding the recipient as `viewer`: SQLite
/// reads the hidden people once per statement, PostgreSQL probes each actor), and the statements that take it
/// are written once around it. A statement that reports whether it changed a row returns one on PostgreSQL,
/// which reads it; SQLite reads its changes count.
public enum NotificationSQL {
    /// A notification row's columns (alias `n`), in the order both adapters read them by position.
    public static let columns: SQLText = """
        n.id, n.recipient_id, n.type, n.actor_id, n.post_id, n.comment_id, n.group_key, n.dedupe_key, n.detail, \
        n.created_at, n.seen_at, n.read_at, n.archived_at
        """

    static let recipient: SQLText = "\(bind: SQLText.viewer)"
    private static let actor: SQLText = "\(bind: "actor", as: "uuid")"

    public static let preferences = SQLStatement(
        "SELECT preferences FROM notification_preferences WHERE user_id = \(bind: "user")")

    /// What the notifier needs of a recipient before it writes to them (`DeliveryRules`), in one statement: the
    /// time zone (no row when the recipient is gone or suspended), the preferences' JSON, the push jobs sent
    /// since `since` on `channel` (silent refreshes, `DeliveryJob.refreshBatchKey`, are not what the hourly
    /// cap counts), whether `actor` may reach them (true when `actor` is NULL) and whether
    /// they have anywhere to push to. Every kudos, comment and follow asks it, on SQLite with the writer held:
    /// as five statements it cost five set-ups and five steps through the binding layer.
    ///
    /// The actor is bound where it is used, not selected once in a subquery of the `FROM`: SQLite built a
    /// temporary table for that.
    public static let deliveryRules = SQLStatement(
        """
        SELECT u.time_zone,
               (SELECT preferences FROM notification_preferences WHERE user_id = u.id),
               (SELECT COUNT(*)\(sqlite: "", postgres: "::BIGINT") FROM delivery_jobs WHERE recipient_id = u.id
                AND channel = \(bind: "channel") AND state = 'sent' AND finished_at >= \(bind: "since")
                AND COALESCE(batch_key, '') <> 'refresh'),
               \(actor) IS NULL OR (\(GraphSQL.reaches(recipient: "u.id", actor: actor))),
               EXISTS (SELECT 1 FROM push_devices WHERE user_id = u.id)
               OR EXISTS (SELECT 1 FROM web_push_subscriptions WHERE user_id = u.id)
        FROM users u
        WHERE u.id = \(bind: "user") AND u.suspended_at IS NULL
        """)

    public static let savePreferences = SQLStatement(
        """
        INSERT INTO notification_preferences (user_id, preferences) VALUES (\(bind: "user"), \(bind: "preferences"))
        ON CONFLICT (user_id) DO UPDATE SET preferences = excluded.preferences
        """)

    public static let insert = SQLStatement(
        """
        INSERT INTO notifications (id, recipient_id, type, actor_id, post_id, comment_id, group_key,
                                   dedupe_key, detail, created_at, seen_at, read_at, archived_at)
        VALUES (\(bind: "id"), \(bind: "recipient"), \(bind: "type"), \(bind: "actor"), \(bind: "post"), \(
            bind: "comment"), \(bind: "groupKey"), \(bind: "dedupeKey"), \(bind: "detail"), \(bind: "createdAt"), \(
            bind: "seenAt"), \(bind: "readAt"), \(bind: "archivedAt"))
        ON CONFLICT DO NOTHING\(sqlite: "", postgres: " RETURNING 1")
        """)

    public static let byID = SQLStatement("SELECT \(columns) FROM notifications n WHERE n.id = \(bind: "id")")

    /// A group's newest notifications the recipient may see (`visible`).
    public static func members(visible: SQLText) -> SQLText {
        """
        SELECT \(columns) FROM notifications n
        WHERE n.recipient_id = \(recipient) AND n.group_key = \(bind: "group") AND \(visible)
        ORDER BY n.id DESC LIMIT \(bind: "limit")
        """
    }

    /// How many of a group's notifications the recipient may see (`visible`), and whether one is unread.
    public static func groupCount(visible: SQLText) -> SQLText {
        """
        SELECT COUNT(*)\(sqlite: "", postgres: "::BIGINT"), COALESCE(\(sqlite: "MAX", postgres: "bool_or")(\
        n.read_at IS NULL), \(sqlite: "0", postgres: "false")) FROM notifications n
        WHERE n.recipient_id = \(recipient) AND n.group_key = \(bind: "group") AND \(visible)
        """
    }

    /// One pass over the newest `limit` unread notifications the recipient may see (`visible`). Unseen ones are
    /// among them: reading marks seen, and what is seen is everything up to a point, so the unseen are the
    /// newest unread (or at least `limit` of them, and the count stops there anyway).
    public static func counts(visible: SQLText) -> SQLText {
        """
        SELECT COUNT(*)\(sqlite: "", postgres: "::BIGINT"), \(sqlite: "", postgres: "(")COUNT(*) FILTER (\
        WHERE seen_at IS NULL)\(sqlite: "", postgres: ")::BIGINT") FROM (
          SELECT n.seen_at FROM notifications n
          WHERE n.recipient_id = \(recipient) AND n.read_at IS NULL AND \(visible)
          ORDER BY n.id DESC LIMIT \(bind: "limit"))\(sqlite: "", postgres: " AS unread")
        """
    }

    public static let markSeen = SQLStatement(
        """
        UPDATE notifications SET seen_at = \(bind: "at") WHERE recipient_id = \(bind: "recipient") AND seen_at IS NULL
        AND (\(bind: "upTo", as: "uuid") IS NULL OR id <= \(bind: "upTo", as: "uuid"))
        """)

    /// Reading implies seeing.
    public static let markRead = SQLStatement(
        """
        UPDATE notifications SET read_at = \(bind: "at"), seen_at = COALESCE(seen_at, \(bind: "at"))
        WHERE recipient_id = \(bind: "recipient") AND read_at IS NULL
        AND (\(bind: "upTo", as: "uuid") IS NULL OR id <= \(bind: "upTo", as: "uuid"))
        AND (\(bind: "groupKey", as: "text") IS NULL OR group_key = \(bind: "groupKey", as: "text"))
        """)

    public static let archive = SQLStatement(
        """
        UPDATE notifications SET archived_at = \(bind: "at")
        WHERE recipient_id = \(bind: "recipient") AND group_key = \(bind: "group") AND archived_at IS NULL\(
            sqlite: "", postgres: " RETURNING 1")
        """)
}
