/// The Nostr store's statements and its privacy rule, on both databases. A statement that reports whether it
/// changed a row returns one on PostgreSQL, which reads it; SQLite reads its changes count. Each database
/// builds its filters' conditions its own way (JSON arrays and FTS5 on SQLite, arrays and tsvector on
/// PostgreSQL).
public enum NostrSQL {
    /// What the reader (bound as `viewer`, NULL for nobody) may see: not hidden, and of a key linked to no
    /// account, or to the reader's, or to one in good standing (not suspended), with a public profile (not
    /// followers-only, not private), with no block between it and the reader either way (`PersonPolicy`'s
    /// `relayEvents`, as the live relay asks it).
    public static let visible: SQLText = """
        \(sqlite: "e.hidden = 0", postgres: "NOT e.hidden") AND (e.author_id IS NULL OR e.author_id = \(reader) OR EXISTS (
            SELECT 1 FROM users u WHERE u.id = e.author_id AND u.suspended_at IS NULL AND u.privacy = 'public'
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = e.author_id AND b.blocked_id = \(reader))
                OR (b.blocker_id = \(reader) AND b.blocked_id = e.author_id))))
        """

    static let reader: SQLText = "\(bind: SQLText.viewer, as: "uuid")"

    /// The newest events matching `conditions` (one filter's, as each database builds them) that the reader
    /// may see, in the relay's order: newest first, then lowest id.
    public static func newest(conditions: SQLText, limit: SQLText) -> SQLText {
        """
        SELECT e.created_at, e.id, e.raw FROM nostr_events e
        WHERE \(conditions) AND \(visible)
        ORDER BY e.created_at DESC, e.id LIMIT \(limit)
        """
    }

    /// How many events the filters' `conditions` (one each) match together that the reader may see, each
    /// counted once; one filter is counted without the union.
    public static func count(conditions: [SQLText]) -> SQLText {
        if conditions.count == 1 { return "SELECT COUNT(*) FROM nostr_events e WHERE \(conditions[0]) AND \(visible)" }
        let parts = conditions.map { "SELECT e.seq FROM nostr_events e WHERE \($0) AND \(visible)" as SQLText }
        return
            "SELECT COUNT(*) FROM (\(SQLText.joined(parts, separator: " UNION ")))\(sqlite: "", postgres: " matched")"
    }

    private static let changedRow: SQLText = "\(sqlite: "", postgres: " RETURNING 1")"

    public static let link = SQLStatement(
        """
        INSERT INTO nostr_keys (pubkey, user_id, linked_at) VALUES (\(bind: "key"), \(bind: "user"), \(bind: "at"))
        ON CONFLICT DO NOTHING\(changedRow)
        """)

    /// A key's events stored while it was linked to nobody (an `open` relay) go to the account it links to.
    public static let claimEvents = SQLStatement(
        "UPDATE nostr_events SET author_id = \(bind: "user") WHERE pubkey = \(bind: "key") AND author_id IS NULL")

    public static let unlink = SQLStatement(
        "DELETE FROM nostr_keys WHERE pubkey = \(bind: "key") AND user_id = \(bind: "user")\(changedRow)")

    public static let keys = SQLStatement(
        "SELECT pubkey, linked_at FROM nostr_keys WHERE user_id = \(bind: "user") ORDER BY linked_at, pubkey")

    public static let owner = SQLStatement("SELECT user_id FROM nostr_keys WHERE pubkey = \(bind: "key")")

    public static let insertChallenge = SQLStatement(
        "INSERT INTO nostr_challenges (hash, user_id, expires_at) VALUES (\(bind: "hash"), \(bind: "user"), \(bind: "at"))"
    )

    /// Atomic: of two concurrent uses, the second waits for the first and then finds no row.
    public static let consumeChallenge = SQLStatement(
        "DELETE FROM nostr_challenges WHERE hash = \(bind: "hash") RETURNING user_id, expires_at")

    public static let markAuthorizationUsed = SQLStatement(
        """
        INSERT INTO nostr_used_authorizations (event_id, expires_at) VALUES (\(bind: "id"), \(bind: "at"))
        ON CONFLICT DO NOTHING\(changedRow)
        """)

    public static let deleteExpiredChallenges = SQLStatement(
        "DELETE FROM nostr_challenges WHERE expires_at < \(bind: "before")")

    public static let deleteExpiredAuthorizations = SQLStatement(
        "DELETE FROM nostr_used_authorizations WHERE expires_at < \(bind: "before")")

    /// The stored version of a replaceable or addressable event, by its address.
    public static let storedVersion = SQLStatement(
        """
        SELECT seq, id, created_at FROM nostr_events
        WHERE pubkey = \(bind: "pubkey") AND kind = \(bind: "kind") AND d_tag = \(bind: "key")
        """)

    /// Its tags go with it (ON DELETE CASCADE), its words by the full-text trigger or index.
    public static let deleteVersion = SQLStatement("DELETE FROM nostr_events WHERE seq = \(bind: "seq")")

    /// PostgreSQL returns the new row's `seq`, or nothing when another connection saved the same event first;
    /// SQLite's one writer has checked for it already and reads the last inserted row id.
    public static let insertEvent = SQLStatement(
        """
        INSERT INTO nostr_events (id, pubkey, created_at, kind, d_tag, content, raw, author_id, received_at)
        VALUES (\(bind: "id"), \(bind: "pubkey"), \(bind: "createdAt"), \(bind: "kind"), \(bind: "key"), \(
            bind: "content"), \(bind: "raw"), \(bind: "author"), \(bind: "receivedAt"))\(
            sqlite: "", postgres: "\nON CONFLICT (id) DO NOTHING RETURNING seq")
        """)

    public static let find = SQLStatement(
        "SELECT raw, author_id, hidden, received_at FROM nostr_events WHERE id = \(bind: "id")")

    private static let hidden: SQLText = "\(sqlite: "1", postgres: "true")"

    /// Hides the author's events a deletion request names by address, up to its time; returns their ids.
    public static let hideAddress = SQLStatement(
        """
        UPDATE nostr_events SET hidden = \(hidden)
        WHERE pubkey = \(bind: "pubkey") AND kind = \(bind: "kind")
          AND d_tag = \(bind: "key") AND created_at <= \(bind: "until")
        RETURNING id
        """)

    public static let setHidden = SQLStatement(
        "UPDATE nostr_events SET hidden = \(bind: "hidden") WHERE id = \(bind: "id")")

    public static let importColumns: SQLText = "event_id, target, target_id, target_second_id, imported_at"

    public static let recordImport = SQLStatement(
        """
        INSERT INTO nostr_imports (\(importColumns))
        VALUES (\(bind: "id"), \(bind: "target"), \(bind: "first"), \(bind: "second"), \(bind: "at"))
        ON CONFLICT DO NOTHING\(changedRow)
        """)

    public static let importRecord = SQLStatement(
        "SELECT \(importColumns) FROM nostr_imports WHERE event_id = \(bind: "id")")
}
