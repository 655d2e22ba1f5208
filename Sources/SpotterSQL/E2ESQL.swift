/// The end-to-end encryption store's statements, on both databases. Each database checks a chain's length and
/// appends to it in one transaction its own way (SQLite's one writer, PostgreSQL's row lock); the statements
/// inside are these.
public enum E2ESQL {
    public static let deviceColumns: SQLText =
        "id, user_id, name, hpke_public, signing_public, recovery, added_at, revoked_at"
    public static let blobColumns: SQLText =
        "id, group_id, owner_id, byte_size, ready, post_id, created_at, discarded_at"

    public static let deviceStatements = SQLStatement(
        "SELECT body, signature, signer FROM e2e_device_statements WHERE user_id = \(bind: "user") ORDER BY seq")

    public static let deviceChainLength = SQLStatement(
        "SELECT count(*)\(sqlite: "", postgres: "::int") FROM e2e_device_statements WHERE user_id = \(bind: "user")")

    public static let appendDeviceStatement = SQLStatement(
        """
        INSERT INTO e2e_device_statements (user_id, seq, body, signature, signer, hash)
        VALUES (\(bind: "user"), \(bind: "seq"), \(bind: "body"), \(bind: "signature"), \(bind: "signer"), \(
            bind: "hash"))
        """)

    public static let upsertDevice = SQLStatement(
        """
        INSERT INTO e2e_devices (\(deviceColumns))
        VALUES (\(bind: "id"), \(bind: "user"), \(bind: "name"), \(bind: "hpke"), \(bind: "signing"), \(
            bind: "recovery"), \(bind: "addedAt"), \(bind: "revokedAt"))
        ON CONFLICT (id) DO UPDATE SET revoked_at = excluded.revoked_at
        """)

    public static let devicesOf = SQLStatement(
        """
        SELECT \(deviceColumns) FROM e2e_devices
        WHERE user_id \(SQLText.isAny(of: "users")) ORDER BY user_id, added_at, id
        """)

    public static let device = SQLStatement("SELECT \(deviceColumns) FROM e2e_devices WHERE id = \(bind: "id")")

    public static let recoveryKit = SQLStatement("SELECT kit FROM e2e_recovery_kits WHERE user_id = \(bind: "user")")

    public static let setRecoveryKit = SQLStatement(
        """
        INSERT INTO e2e_recovery_kits (user_id, kit, updated_at) VALUES (\(bind: "user"), \(bind: "kit"), \(
            bind: "at"))
        ON CONFLICT (user_id) DO UPDATE SET kit = excluded.kit, updated_at = excluded.updated_at
        """)

    public static let keyState = SQLStatement(
        "SELECT history, epoch, chain_length, head FROM e2e_groups WHERE group_id = \(bind: "group")")

    public static let groupStatements = SQLStatement(
        "SELECT body, signature, signer FROM e2e_group_statements WHERE group_id = \(bind: "group") ORDER BY seq")

    public static let groupChainLength = SQLStatement(
        "SELECT chain_length FROM e2e_groups WHERE group_id = \(bind: "group")")

    public static let appendGroupStatement = SQLStatement(
        """
        INSERT INTO e2e_group_statements (group_id, seq, body, signature, signer, hash)
        VALUES (\(bind: "group"), \(bind: "seq"), \(bind: "body"), \(bind: "signature"), \(bind: "signer"), \(
            bind: "hash"))
        """)

    public static let setGroupHead = SQLStatement(
        """
        INSERT INTO e2e_groups (group_id, history, epoch, chain_length, head)
        VALUES (\(bind: "group"), \(bind: "history"), NULL, \(bind: "length"), \(bind: "head"))
        ON CONFLICT (group_id) DO UPDATE SET chain_length = excluded.chain_length, head = excluded.head
        """)

    public static let clearChainMembers = SQLStatement(
        "DELETE FROM e2e_chain_members WHERE group_id = \(bind: "group")")

    public static let addChainMember = SQLStatement(
        """
        INSERT INTO e2e_chain_members (group_id, user_id, role)
        VALUES (\(bind: "group"), \(bind: "user"), \(bind: "role"))
        """)

    public static let chainMembers = SQLStatement(
        "SELECT user_id, role FROM e2e_chain_members WHERE group_id = \(bind: "group")")

    public static let setEpoch = SQLStatement(
        "UPDATE e2e_groups SET epoch = \(bind: "epoch") WHERE group_id = \(bind: "group")")

    /// A device's key for an epoch; `ON CONFLICT DO NOTHING` where a key may come twice (`addKeys`).
    public static func wrappedKey(onConflict: SQLText = "") -> SQLStatement {
        SQLStatement(
            """
            INSERT INTO e2e_wrapped_keys (group_id, device_id, epoch, key)
            VALUES (\(bind: "group"), \(bind: "device"), \(bind: "epoch"), \(bind: "key"))\(onConflict)
            """)
    }

    public static let insertKey = wrappedKey()
    public static let addKey = wrappedKey(onConflict: " ON CONFLICT DO NOTHING")

    public static let keys = SQLStatement(
        """
        SELECT epoch, key FROM e2e_wrapped_keys
        WHERE group_id = \(bind: "group") AND device_id = \(bind: "device") ORDER BY epoch
        """)

    public static let currentHolders = SQLStatement(
        """
        SELECT d.id, d.user_id, d.name, d.hpke_public, d.signing_public, d.recovery, d.added_at, d.revoked_at
        FROM e2e_groups g
        JOIN e2e_wrapped_keys k ON k.group_id = g.group_id AND k.epoch = g.epoch
        JOIN e2e_devices d ON d.id = k.device_id
        WHERE g.group_id = \(bind: "group")
        """)

    /// Forgetting a group's keys and chains, in this order.
    public static let forget = ["e2e_wrapped_keys", "e2e_group_statements", "e2e_chain_members", "e2e_groups"].map {
        SQLStatement("DELETE FROM \(raw: $0) WHERE group_id = \(bind: "group")")
    }

    /// Erasing a post's ciphertext: the post's, then its comments'.
    public static let eraseSealedPost = [
        SQLStatement("UPDATE posts SET sealed = NULL WHERE id = \(bind: "post")"),
        SQLStatement("UPDATE comments SET sealed = NULL WHERE post_id = \(bind: "post") AND sealed IS NOT NULL"),
    ]

    public static let eraseSealedComment = SQLStatement(
        "UPDATE comments SET sealed = NULL WHERE id = \(bind: "comment")")

    public static let insertBlob = SQLStatement(
        """
        INSERT INTO e2e_blobs (id, group_id, owner_id, byte_size, ready, created_at)
        VALUES (\(bind: "id"), \(bind: "group"), \(bind: "owner"), \(bind: "size"), FALSE, \(bind: "createdAt"))
        """)

    public static let blob = SQLStatement("SELECT \(blobColumns) FROM e2e_blobs WHERE id = \(bind: "id")")

    public static let markBlobReady = SQLStatement("UPDATE e2e_blobs SET ready = TRUE WHERE id = \(bind: "id")")

    /// Returns a row for each blob it attached.
    public static let attachBlobs = SQLStatement(
        """
        UPDATE e2e_blobs SET post_id = \(bind: "post")
        WHERE id \(SQLText.isAny(of: "ids")) AND owner_id = \(bind: "owner") AND group_id = \(bind: "group") AND ready
          AND post_id IS NULL AND discarded_at IS NULL
        RETURNING id
        """)

    public static let discardBlobsOfPost = SQLStatement(
        "UPDATE e2e_blobs SET discarded_at = \(bind: "at") WHERE post_id = \(bind: "post") AND discarded_at IS NULL")

    public static let discardBlobsInGroup = SQLStatement(
        "UPDATE e2e_blobs SET discarded_at = \(bind: "at") WHERE group_id = \(bind: "group") AND discarded_at IS NULL")

    public static let sweepableBlobs = SQLStatement(
        """
        SELECT \(blobColumns) FROM e2e_blobs
        WHERE discarded_at IS NOT NULL OR (post_id IS NULL AND created_at < \(bind: "staleBefore"))
        LIMIT \(bind: "limit")
        """)

    public static let deleteBlobs = SQLStatement("DELETE FROM e2e_blobs WHERE id \(SQLText.isAny(of: "ids"))")

    public static let requestColumns: SQLText =
        "id, user_id, device_id, name, hpke_public, signing_public, created_at, expires_at"

    /// A new device's public registration, waiting to be approved. A statement that reports whether it changed
    /// a row returns one on PostgreSQL, which reads it; SQLite reads its changes count.
    public static let insertDeviceRequest = SQLStatement(
        """
        INSERT INTO e2e_device_requests (\(requestColumns))
        VALUES (\(bind: "id"), \(bind: "user"), \(bind: "device"), \(bind: "name"), \(bind: "hpke"), \(
            bind: "signing"), \(bind: "createdAt"), \(bind: "expiresAt"))
        ON CONFLICT (device_id) DO NOTHING\(sqlite: "", postgres: "\nRETURNING 1")
        """)

    public static let deviceRequests = SQLStatement(
        """
        SELECT \(requestColumns) FROM e2e_device_requests
        WHERE user_id = \(bind: "user") AND expires_at > \(bind: "now") ORDER BY created_at, id
        """)

    public static let deleteDeviceRequest = SQLStatement(
        """
        DELETE FROM e2e_device_requests WHERE id = \(bind: "id") AND user_id = \(bind: "user")\(
            sqlite: "", postgres: " RETURNING 1")
        """)

    public static let deleteDeviceRequestForDevice = SQLStatement(
        "DELETE FROM e2e_device_requests WHERE device_id = \(bind: "device") AND user_id = \(bind: "user")")

    public static let deleteExpiredDeviceRequests = SQLStatement(
        "DELETE FROM e2e_device_requests WHERE user_id = \(bind: "user") AND expires_at <= \(bind: "now")")
}
