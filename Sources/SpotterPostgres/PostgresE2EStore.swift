import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

/// `E2EStore` on PostgreSQL. An append locks its chain's owner row (the person's, the group's) for the length
/// of its transaction, so a chain's length checked and its statements inserted are one compare-and-swap across
/// nodes.
struct PostgresE2EStore: E2EStore {
    let client: PostgresDatabase
    let logger: Logger

    static let deviceColumns = "id, user_id, name, hpke_public, signing_public, recovery, added_at, revoked_at"
    static let blobColumns = "id, group_id, owner_id, byte_size, ready, post_id, created_at, discarded_at"

    // MARK: Device chains

    func deviceStatements(of user: UserID) async throws -> [E2EStatement] {
        try await statements(
            "SELECT body, signature, signer FROM e2e_device_statements WHERE user_id = \(user.rawValue) ORDER BY seq")
    }

    func appendDeviceStatement(
        _ statement: E2EStatement, hash: String, seq: Int, of user: UserID, devices: [E2EDeviceRecord]
    ) async throws -> Bool {
        try await client.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SELECT 1 FROM users WHERE id = \(user.rawValue) FOR UPDATE", logger: logger)
                .collect()
            var length = 0
            for try await count in try await connection.query(
                "SELECT count(*)::int FROM e2e_device_statements WHERE user_id = \(user.rawValue)", logger: logger
            ).decode(Int.self) { length = count }
            guard length == seq else { return false }
            try await connection.query(
                """
                INSERT INTO e2e_device_statements (user_id, seq, body, signature, signer, hash)
                VALUES (\(user.rawValue), \(seq), \(statement.body), \(statement.signature), \(statement.signer),
                        \(hash))
                """, logger: logger)
            for device in devices {
                try await connection.query(
                    """
                    INSERT INTO e2e_devices (\(unescaped: Self.deviceColumns))
                    VALUES (\(device.id), \(device.userID.rawValue), \(device.name), \(device.hpkePublic),
                            \(device.signingPublic), \(device.recovery), \(device.addedAt), \(device.revokedAt))
                    ON CONFLICT (id) DO UPDATE SET revoked_at = excluded.revoked_at
                    """, logger: logger)
            }
            return true
        }
    }

    func devices(of users: [UserID]) async throws -> [E2EDeviceRecord] {
        guard !users.isEmpty else { return [] }
        return try await deviceRecords(
            """
            SELECT \(unescaped: Self.deviceColumns) FROM e2e_devices
            WHERE user_id = ANY(\(users.map(\.rawValue))) ORDER BY user_id, added_at, id
            """)
    }

    func device(_ id: UUID) async throws -> E2EDeviceRecord? {
        try await deviceRecords("SELECT \(unescaped: Self.deviceColumns) FROM e2e_devices WHERE id = \(id)").first
    }

    func recoveryKit(of user: UserID) async throws -> String? {
        for try await kit in try await client.query(
            "SELECT kit FROM e2e_recovery_kits WHERE user_id = \(user.rawValue)", logger: logger
        ).decode(String.self) { return kit }
        return nil
    }

    func setRecoveryKit(_ kit: String, of user: UserID, at date: Date) async throws {
        try await client.query(
            """
            INSERT INTO e2e_recovery_kits (user_id, kit, updated_at) VALUES (\(user.rawValue), \(kit), \(date))
            ON CONFLICT (user_id) DO UPDATE SET kit = excluded.kit, updated_at = excluded.updated_at
            """, logger: logger)
    }

    // MARK: Group chains and keys

    func keyState(of group: GroupID) async throws -> E2EGroupRecord? {
        for try await (history, epoch, length, head) in try await client.query(
            "SELECT history, epoch, chain_length, head FROM e2e_groups WHERE group_id = \(group.rawValue)",
            logger: logger
        ).decode((Bool, Int?, Int, String).self) {
            return E2EGroupRecord(groupID: group, history: history, epoch: epoch, chainLength: length, head: head)
        }
        return nil
    }

    func groupStatements(of group: GroupID) async throws -> [E2EStatement] {
        try await statements(
            "SELECT body, signature, signer FROM e2e_group_statements WHERE group_id = \(group.rawValue) ORDER BY seq")
    }

    func appendGroupStatements(
        _ statements: [(statement: E2EStatement, hash: String)], to group: GroupID, from: Int, history: Bool,
        members: [UserID: GroupRole]
    ) async throws -> Bool {
        guard let head = statements.last?.hash else { return false }
        return try await client.withTransaction(logger: logger) { connection in
            _ = try await connection.query(
                "SELECT 1 FROM groups WHERE id = \(group.rawValue) FOR UPDATE", logger: logger
            ).collect()
            var length = 0
            for try await value in try await connection.query(
                "SELECT chain_length FROM e2e_groups WHERE group_id = \(group.rawValue)", logger: logger
            ).decode(Int.self) { length = value }
            guard length == from else { return false }
            for (offset, item) in statements.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO e2e_group_statements (group_id, seq, body, signature, signer, hash)
                    VALUES (\(group.rawValue), \(from + offset), \(item.statement.body), \(item.statement.signature),
                            \(item.statement.signer), \(item.hash))
                    """, logger: logger)
            }
            try await connection.query(
                """
                INSERT INTO e2e_groups (group_id, history, epoch, chain_length, head)
                VALUES (\(group.rawValue), \(history), NULL, \(from + statements.count), \(head))
                ON CONFLICT (group_id) DO UPDATE SET chain_length = excluded.chain_length, head = excluded.head
                """, logger: logger)
            try await connection.query(
                "DELETE FROM e2e_chain_members WHERE group_id = \(group.rawValue)", logger: logger)
            for (user, role) in members {
                try await connection.query(
                    """
                    INSERT INTO e2e_chain_members (group_id, user_id, role)
                    VALUES (\(group.rawValue), \(user.rawValue), \(role.rawValue))
                    """, logger: logger)
            }
            return true
        }
    }

    func chainMembers(of group: GroupID) async throws -> [UserID: GroupRole] {
        var members: [UserID: GroupRole] = [:]
        for try await (user, role) in try await client.query(
            "SELECT user_id, role FROM e2e_chain_members WHERE group_id = \(group.rawValue)", logger: logger
        ).decode((UUID, String).self) {
            if let role = GroupRole(rawValue: role) { members[UserID(rawValue: user)] = role }
        }
        return members
    }

    func startEpoch(_ number: Int, of group: GroupID, keys: [E2EDeviceKey]) async throws -> Bool {
        try await client.withTransaction(logger: logger) { connection in
            var found = false
            var current: Int?
            for try await epoch in try await connection.query(
                "SELECT epoch FROM e2e_groups WHERE group_id = \(group.rawValue) FOR UPDATE", logger: logger
            ).decode(Int?.self) {
                found = true
                current = epoch
            }
            guard found, number == (current.map { $0 + 1 } ?? 0) else { return false }
            try await connection.query(
                "UPDATE e2e_groups SET epoch = \(number) WHERE group_id = \(group.rawValue)", logger: logger)
            for key in keys {
                try await connection.query(
                    """
                    INSERT INTO e2e_wrapped_keys (group_id, device_id, epoch, key)
                    VALUES (\(group.rawValue), \(key.deviceID), \(number), \(key.key))
                    """, logger: logger)
            }
            return true
        }
    }

    func addKeys(_ keys: [E2EEpochKey], in group: GroupID) async throws {
        guard !keys.isEmpty else { return }
        try await client.withTransaction(logger: logger) { connection in
            for key in keys {
                try await connection.query(
                    """
                    INSERT INTO e2e_wrapped_keys (group_id, device_id, epoch, key)
                    VALUES (\(group.rawValue), \(key.deviceID), \(key.epoch), \(key.key)) ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
        }
    }

    func keys(of device: UUID, in group: GroupID) async throws -> [E2EEpochKey] {
        var keys: [E2EEpochKey] = []
        for try await (epoch, key) in try await client.query(
            """
            SELECT epoch, key FROM e2e_wrapped_keys
            WHERE group_id = \(group.rawValue) AND device_id = \(device) ORDER BY epoch
            """, logger: logger
        ).decode((Int, String).self) { keys.append(E2EEpochKey(deviceID: device, epoch: epoch, key: key)) }
        return keys
    }

    func currentHolders(of group: GroupID) async throws -> [E2EDeviceRecord] {
        try await deviceRecords(
            """
            SELECT d.id, d.user_id, d.name, d.hpke_public, d.signing_public, d.recovery, d.added_at, d.revoked_at
            FROM e2e_groups g
            JOIN e2e_wrapped_keys k ON k.group_id = g.group_id AND k.epoch = g.epoch
            JOIN e2e_devices d ON d.id = k.device_id
            WHERE g.group_id = \(group.rawValue)
            """)
    }

    func forget(_ group: GroupID) async throws {
        try await client.withTransaction(logger: logger) { connection in
            for table in ["e2e_wrapped_keys", "e2e_group_statements", "e2e_chain_members", "e2e_groups"] {
                try await connection.query(
                    "DELETE FROM \(unescaped: table) WHERE group_id = \(group.rawValue)", logger: logger)
            }
        }
    }

    func eraseSealed(post: PostID) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("UPDATE posts SET sealed = NULL WHERE id = \(post.rawValue)", logger: logger)
            try await connection.query(
                "UPDATE comments SET sealed = NULL WHERE post_id = \(post.rawValue) AND sealed IS NOT NULL",
                logger: logger)
        }
    }

    func eraseSealed(comment: CommentID) async throws {
        try await client.query("UPDATE comments SET sealed = NULL WHERE id = \(comment.rawValue)", logger: logger)
    }

    // MARK: Encrypted blobs

    func insertBlob(_ blob: SealedBlobRecord) async throws {
        try await client.query(
            """
            INSERT INTO e2e_blobs (id, group_id, owner_id, byte_size, ready, created_at)
            VALUES (\(blob.id), \(blob.groupID.rawValue), \(blob.ownerID.rawValue), \(blob.byteSize), FALSE,
                    \(blob.createdAt))
            """, logger: logger)
    }

    func blob(_ id: UUID) async throws -> SealedBlobRecord? {
        try await blobs("SELECT \(unescaped: Self.blobColumns) FROM e2e_blobs WHERE id = \(id)").first
    }

    func markBlobReady(_ id: UUID) async throws {
        try await client.query("UPDATE e2e_blobs SET ready = TRUE WHERE id = \(id)", logger: logger)
    }

    func attachBlobs(_ ids: [UUID], to post: PostID, owner: UserID, group: GroupID) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        var count = 0
        for try await _ in try await client.query(
            """
            UPDATE e2e_blobs SET post_id = \(post.rawValue)
            WHERE id = ANY(\(ids)) AND owner_id = \(owner.rawValue) AND group_id = \(group.rawValue) AND ready
              AND post_id IS NULL AND discarded_at IS NULL
            RETURNING id
            """, logger: logger)
        { count += 1 }
        return count
    }

    func discardBlobs(of post: PostID, at date: Date) async throws {
        try await client.query(
            "UPDATE e2e_blobs SET discarded_at = \(date) WHERE post_id = \(post.rawValue) AND discarded_at IS NULL",
            logger: logger)
    }

    func discardBlobs(in group: GroupID, at date: Date) async throws {
        try await client.query(
            "UPDATE e2e_blobs SET discarded_at = \(date) WHERE group_id = \(group.rawValue) AND discarded_at IS NULL",
            logger: logger)
    }

    func sweepableBlobs(staleBefore: Date, limit: Int) async throws -> [SealedBlobRecord] {
        try await blobs(
            """
            SELECT \(unescaped: Self.blobColumns) FROM e2e_blobs
            WHERE discarded_at IS NOT NULL OR (post_id IS NULL AND created_at < \(staleBefore))
            LIMIT \(limit)
            """)
    }

    func deleteBlobs(_ ids: [UUID]) async throws {
        guard !ids.isEmpty else { return }
        try await client.query("DELETE FROM e2e_blobs WHERE id = ANY(\(ids))", logger: logger)
    }

    // MARK: Rows

    private func statements(_ query: PostgresQuery) async throws -> [E2EStatement] {
        var statements: [E2EStatement] = []
        for try await (body, signature, signer) in try await client.query(query, logger: logger).decode(
            (String, String, UUID).self)
        {
            statements.append(E2EStatement(body: body, signature: signature, signer: signer))
        }
        return statements
    }

    private func deviceRecords(_ query: PostgresQuery) async throws -> [E2EDeviceRecord] {
        var devices: [E2EDeviceRecord] = []
        for try await (id, user, name, hpke, signing, recovery, added, revoked) in try await client.query(
            query, logger: logger
        ).decode((UUID, UUID, String, String, String, Bool, Int64, Int64?).self) {
            devices.append(
                E2EDeviceRecord(
                    id: id, userID: UserID(rawValue: user), name: name, hpkePublic: hpke, signingPublic: signing,
                    recovery: recovery, addedAt: added, revokedAt: revoked))
        }
        return devices
    }

    private func blobs(_ query: PostgresQuery) async throws -> [SealedBlobRecord] {
        var blobs: [SealedBlobRecord] = []
        for try await (id, group, owner, size, ready, post, created, discarded) in try await client.query(
            query, logger: logger
        ).decode((UUID, UUID, UUID, Int, Bool, UUID?, Date, Date?).self) {
            blobs.append(
                SealedBlobRecord(
                    id: id, groupID: GroupID(rawValue: group), ownerID: UserID(rawValue: owner), byteSize: size,
                    ready: ready, postID: post.map(PostID.init), createdAt: created, discardedAt: discarded))
        }
        return blobs
    }
}
