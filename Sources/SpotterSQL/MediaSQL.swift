/// The media store's statements, on both databases. A list of ids is one bind (`SQLText.isAny(of:)`); a
/// statement that reports whether it changed a row returns one on PostgreSQL, which reads it, and SQLite reads
/// its changes count.
public enum MediaSQL {
    /// A media row's columns, in the order both adapters read them by position.
    public static let columns: SQLText = """
        id, owner_id, purpose, status, content_type, byte_size, reason, width, height, blurhash, description,
        focus_x, focus_y, post_id, position, attached_at, discarded_at, created_at, attempts, avatar_of
        """

    public static let insert = SQLStatement(
        """
        INSERT INTO media (id, owner_id, purpose, status, content_type, byte_size, description, focus_x, focus_y,
                           created_at, run_at)
        VALUES (\(bind: "id"), \(bind: "owner"), \(bind: "purpose"), \(bind: "status"), \(bind: "contentType"), \(
            bind: "byteSize"), \(bind: "description"), \(bind: "focusX"), \(bind: "focusY"), \(bind: "at"), \(
            bind: "at"))
        """)

    public static let find = SQLStatement("SELECT \(columns) FROM media WHERE id = \(bind: "id")")

    public static let findAll = SQLStatement("SELECT \(columns) FROM media WHERE id \(SQLText.isAny(of: "ids"))")

    public static let startProcessing = SQLStatement(
        """
        UPDATE media SET status = 'processing', run_at = \(bind: "at")
        WHERE id = \(bind: "id") AND status = 'pending'\(sqlite: "", postgres: " RETURNING id")
        """)

    /// The media due for processing by `now` whose lease (if any) ran out, oldest first.
    static func due(_ selected: SQLText) -> SQLText {
        """
        SELECT \(selected) FROM media
        WHERE status = 'processing' AND run_at <= \(bind: "now") AND (lease_until IS NULL OR lease_until < \(
            bind: "now"))
        ORDER BY run_at LIMIT \(bind: "limit")
        """
    }

    /// SQLite's claim: `due`, read inside the writer that then leases them (`lease`).
    public static let dueJobs = SQLStatement(due(columns))

    public static let lease = SQLStatement(
        "UPDATE media SET lease_until = \(bind: "leaseUntil") WHERE id \(SQLText.isAny(of: "ids"))")

    /// PostgreSQL's claim: `due`, leased in the same statement. `SKIP LOCKED`: nodes claiming at once each take
    /// different rows, none waits for another.
    public static let claimDue = SQLStatement(
        """
        UPDATE media SET lease_until = \(bind: "leaseUntil")
        WHERE id IN (
            \(due("id")) FOR UPDATE SKIP LOCKED)
        RETURNING \(columns)
        """)

    public static let markReady = SQLStatement(
        """
        UPDATE media SET status = 'ready', width = \(bind: "width"), height = \(bind: "height"), blurhash = \(
            bind: "blurhash"),
            reason = NULL, lease_until = NULL
        WHERE id = \(bind: "id")
        """)

    public static let markFailed = SQLStatement(
        "UPDATE media SET status = 'failed', reason = \(bind: "reason"), lease_until = NULL WHERE id = \(bind: "id")")

    public static let retry = SQLStatement(
        "UPDATE media SET attempts = attempts + 1, run_at = \(bind: "runAt"), lease_until = NULL WHERE id = \(bind: "id")"
    )

    public static let updateDetails = SQLStatement(
        """
        UPDATE media SET description = \(bind: "description"), focus_x = \(bind: "focusX"), focus_y = \(
            bind: "focusY")
        WHERE id = \(bind: "id")
        """)

    /// A post's media that are no longer among `keep`, discarded.
    public static let discardDetached = SQLStatement(
        """
        UPDATE media SET discarded_at = \(bind: "at")
        WHERE post_id = \(bind: "post") AND discarded_at IS NULL AND \(
            sqlite: "id NOT IN (SELECT value FROM json_each(", postgres: "NOT (id = ANY(")\(bind: "keep")))
        """)

    public static let attach = SQLStatement(
        """
        UPDATE media SET post_id = \(bind: "post"), position = \(bind: "position"),
            attached_at = coalesce(attached_at, \(bind: "at"))
        WHERE id = \(bind: "id")
        """)

    /// A subject's avatars but the new one (`id`, NULL for none), discarded.
    public static let discardOldAvatars = SQLStatement(
        """
        UPDATE media SET discarded_at = \(bind: "at")
        WHERE avatar_of = \(bind: "subject") AND discarded_at IS NULL AND id \(
            sqlite: "IS NOT", postgres: "IS DISTINCT FROM") \(bind: "id")
        """)

    public static let setAvatar = SQLStatement(
        """
        UPDATE media SET attached_at = coalesce(attached_at, \(bind: "at")), avatar_of = \(bind: "subject")
        WHERE id = \(bind: "id")
        """)

    public static let discard = SQLStatement(
        "UPDATE media SET discarded_at = \(bind: "at") WHERE id \(SQLText.isAny(of: "ids")) AND discarded_at IS NULL")

    public static let discardPost = SQLStatement(
        "UPDATE media SET discarded_at = \(bind: "at") WHERE post_id = \(bind: "post") AND discarded_at IS NULL")

    /// Discarded media, and media never attached that are older than `staleBefore`. PostgreSQL writes each half
    /// in parentheses.
    public static let sweepable = SQLStatement(
        """
        \(sqlite: "", postgres: "(")SELECT \(columns) FROM media WHERE discarded_at IS NOT NULL\(
            sqlite: "", postgres: ")")
        UNION ALL
        \(sqlite: "", postgres: "(")SELECT \(columns) FROM media
         WHERE attached_at IS NULL AND discarded_at IS NULL AND created_at < \(bind: "staleBefore")\(
            sqlite: "", postgres: ")")
        LIMIT \(bind: "limit")
        """)

    public static let delete = SQLStatement("DELETE FROM media WHERE id \(SQLText.isAny(of: "ids"))")

    public static let countUnattached = SQLStatement(
        """
        SELECT count(*) FROM media
        WHERE owner_id = \(bind: "owner") AND attached_at IS NULL AND discarded_at IS NULL
          AND status <> 'failed' AND created_at >= \(bind: "since")
        """)

    /// The first node to store a key for media URLs keeps it; every other keeps the one stored.
    public static let offerSigningKey = SQLStatement(
        """
        INSERT\(sqlite: " OR IGNORE", postgres: "") INTO server_keys (name, key, created_at) VALUES ('media-urls', \(
            bind: "key"), \(bind: "at"))\(sqlite: "", postgres: " ON CONFLICT (name) DO NOTHING")
        """)

    public static let signingKey = SQLStatement("SELECT key FROM server_keys WHERE name = 'media-urls'")
}
