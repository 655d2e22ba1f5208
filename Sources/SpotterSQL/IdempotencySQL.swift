/// The idempotency store's statements, on both databases.
public enum IdempotencySQL {
    private static let select: SQLText = """
        SELECT fingerprint, created_at, status, content_type, body FROM idempotency_keys
        WHERE scope = \(bind: "scope") AND key = \(bind: "key")
        """

    /// A key's record.
    public static let find = SQLStatement(select)

    /// A key's record, for `record`. On PostgreSQL it is locked for the rest of the unit, so two nodes that
    /// both find a stale record cannot both replace it; SQLite's one writer needs no lock.
    public static let findLocked = SQLStatement("\(select)\(sqlite: "", postgres: " FOR UPDATE")")

    /// Stores an answer with its key; on PostgreSQL returns a row when the key was new, SQLite reads its changes
    /// count (a `RETURNING` there buffers the row in a temporary table, on every keyed request). PostgreSQL's
    /// unique index makes an insert of a key another unit is inserting wait for that unit's end.
    public static let insert = SQLStatement(
        """
        INSERT INTO idempotency_keys (scope, key, fingerprint, created_at, status, content_type, body)
        VALUES (\(bind: "scope"), \(bind: "key"), \(bind: "fingerprint"), \(bind: "now"), \(bind: "status"), \(
            bind: "content_type"), \(bind: "body"))
        ON CONFLICT (scope, key) DO NOTHING\(sqlite: "", postgres: " RETURNING 1")
        """)

    /// Replaces a stale record (past retention, or an abandoned claim) with a new answer.
    public static let replace = SQLStatement(
        """
        UPDATE idempotency_keys SET fingerprint = \(bind: "fingerprint"), created_at = \(bind: "now"), \
        status = \(bind: "status"), content_type = \(bind: "content_type"), body = \(bind: "body")
        WHERE scope = \(bind: "scope") AND key = \(bind: "key")
        """)
}
