import Foundation
import GRDB
import SpotterCore
import SpotterModels

/// `E2EStore` on SQLite. The writer runs one write at a time, so a chain's length checked and its statement
/// inserted inside one `write` is a compare-and-swap.
struct SQLiteE2EStore: E2EStore {
    let pool: SQLiteDatabase

    static let deviceColumns = "id, user_id, name, hpke_public, signing_public, recovery, added_at, revoked_at"
    static let blobColumns = "id, group_id, owner_id, byte_size, ready, post_id, created_at, discarded_at"

    // MARK: Device chains

    func deviceStatements(of user: UserID) async throws -> [E2EStatement] {
        try await pool.read { db in
            try Self.statements(
                db, "SELECT body, signature, signer FROM e2e_device_statements WHERE user_id = ? ORDER BY seq",
                [user.description])
        }
    }

    func appendDeviceStatement(
        _ statement: E2EStatement, hash: String, seq: Int, of user: UserID, devices: [E2EDeviceRecord]
    ) async throws -> Bool {
        try await pool.write { db in
            let length =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM e2e_device_statements WHERE user_id = ?",
                    arguments: [user.description]) ?? 0
            guard length == seq else { return false }
            try db.execute(
                sql: """
                    INSERT INTO e2e_device_statements (user_id, seq, body, signature, signer, hash)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    user.description, seq, statement.body, statement.signature, UUIDText.format(statement.signer),
                    hash,
                ])
            for device in devices {
                try db.execute(
                    sql: """
                        INSERT INTO e2e_devices (\(Self.deviceColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET revoked_at = excluded.revoked_at
                        """,
                    arguments: [
                        UUIDText.format(device.id), device.userID.description, device.name, device.hpkePublic,
                        device.signingPublic, device.recovery, device.addedAt, device.revokedAt,
                    ])
            }
            return true
        }
    }

    func devices(of users: [UserID]) async throws -> [E2EDeviceRecord] {
        guard !users.isEmpty else { return [] }
        return try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.deviceColumns) FROM e2e_devices
                    WHERE user_id IN (SELECT value FROM json_each(?)) ORDER BY user_id, added_at, id
                    """,
                arguments: [SQLiteIDList.json(users)]
            ).compactMap(Self.device)
        }
    }

    func device(_ id: UUID) async throws -> E2EDeviceRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.deviceColumns) FROM e2e_devices WHERE id = ?",
                arguments: [UUIDText.format(id)]
            ).flatMap(Self.device)
        }
    }

    func recoveryKit(of user: UserID) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT kit FROM e2e_recovery_kits WHERE user_id = ?", arguments: [user.description])
        }
    }

    func setRecoveryKit(_ kit: String, of user: UserID, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO e2e_recovery_kits (user_id, kit, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET kit = excluded.kit, updated_at = excluded.updated_at
                    """,
                arguments: [user.description, kit, date.sqliteValue])
        }
    }

    // MARK: Group chains and keys

    func keyState(of group: GroupID) async throws -> E2EGroupRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT history, epoch, chain_length, head FROM e2e_groups WHERE group_id = ?",
                arguments: [group.description]
            ).map { row in
                E2EGroupRecord(groupID: group, history: row[0], epoch: row[1], chainLength: row[2], head: row[3])
            }
        }
    }

    func groupStatements(of group: GroupID) async throws -> [E2EStatement] {
        try await pool.read { db in
            try Self.statements(
                db, "SELECT body, signature, signer FROM e2e_group_statements WHERE group_id = ? ORDER BY seq",
                [group.description])
        }
    }

    func appendGroupStatements(
        _ statements: [(statement: E2EStatement, hash: String)], to group: GroupID, from: Int, history: Bool,
        members: [UserID: GroupRole]
    ) async throws -> Bool {
        try await pool.write { db in
            let length =
                try Int.fetchOne(
                    db, sql: "SELECT chain_length FROM e2e_groups WHERE group_id = ?", arguments: [group.description])
                ?? 0
            guard length == from, let head = statements.last?.hash else { return false }
            for (offset, item) in statements.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO e2e_group_statements (group_id, seq, body, signature, signer, hash)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        group.description, from + offset, item.statement.body, item.statement.signature,
                        UUIDText.format(item.statement.signer), item.hash,
                    ])
            }
            try db.execute(
                sql: """
                    INSERT INTO e2e_groups (group_id, history, epoch, chain_length, head) VALUES (?, ?, NULL, ?, ?)
                    ON CONFLICT (group_id) DO UPDATE SET chain_length = excluded.chain_length, head = excluded.head
                    """,
                arguments: [group.description, history, from + statements.count, head])
            try db.execute(sql: "DELETE FROM e2e_chain_members WHERE group_id = ?", arguments: [group.description])
            for (user, role) in members {
                try db.execute(
                    sql: "INSERT INTO e2e_chain_members (group_id, user_id, role) VALUES (?, ?, ?)",
                    arguments: [group.description, user.description, role.rawValue])
            }
            return true
        }
    }

    func chainMembers(of group: GroupID) async throws -> [UserID: GroupRole] {
        try await pool.read { db in
            var members: [UserID: GroupRole] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT user_id, role FROM e2e_chain_members WHERE group_id = ?",
                arguments: [group.description])
            {
                if let user = UserID(row[0] as String), let role = GroupRole(rawValue: row[1]) { members[user] = role }
            }
            return members
        }
    }

    func startEpoch(_ number: Int, of group: GroupID, keys: [E2EDeviceKey]) async throws -> Bool {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT epoch FROM e2e_groups WHERE group_id = ?", arguments: [group.description])
            else { return false }
            let current: Int? = row[0]
            guard number == (current.map { $0 + 1 } ?? 0) else { return false }
            try db.execute(
                sql: "UPDATE e2e_groups SET epoch = ? WHERE group_id = ?", arguments: [number, group.description])
            for key in keys {
                try db.execute(
                    sql: "INSERT INTO e2e_wrapped_keys (group_id, device_id, epoch, key) VALUES (?, ?, ?, ?)",
                    arguments: [group.description, UUIDText.format(key.deviceID), number, key.key])
            }
            return true
        }
    }

    func addKeys(_ keys: [E2EEpochKey], in group: GroupID) async throws {
        try await pool.write { db in
            for key in keys {
                try db.execute(
                    sql: """
                        INSERT INTO e2e_wrapped_keys (group_id, device_id, epoch, key) VALUES (?, ?, ?, ?)
                        ON CONFLICT DO NOTHING
                        """,
                    arguments: [group.description, UUIDText.format(key.deviceID), key.epoch, key.key])
            }
        }
    }

    func keys(of device: UUID, in group: GroupID) async throws -> [E2EEpochKey] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT epoch, key FROM e2e_wrapped_keys WHERE group_id = ? AND device_id = ? ORDER BY epoch",
                arguments: [group.description, UUIDText.format(device)]
            ).map { E2EEpochKey(deviceID: device, epoch: $0[0], key: $0[1]) }
        }
    }

    func currentHolders(of group: GroupID) async throws -> [E2EDeviceRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.user_id, d.name, d.hpke_public, d.signing_public, d.recovery, d.added_at,
                           d.revoked_at
                    FROM e2e_groups g
                    JOIN e2e_wrapped_keys k ON k.group_id = g.group_id AND k.epoch = g.epoch
                    JOIN e2e_devices d ON d.id = k.device_id
                    WHERE g.group_id = ?
                    """,
                arguments: [group.description]
            ).compactMap(Self.device)
        }
    }

    func forget(_ group: GroupID) async throws {
        try await pool.write { db in
            for table in ["e2e_wrapped_keys", "e2e_group_statements", "e2e_chain_members", "e2e_groups"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE group_id = ?", arguments: [group.description])
            }
        }
    }

    func eraseSealed(post: PostID) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE posts SET sealed = NULL WHERE id = ?", arguments: [post.description])
            try db.execute(
                sql: "UPDATE comments SET sealed = NULL WHERE post_id = ? AND sealed IS NOT NULL",
                arguments: [post.description])
        }
    }

    func eraseSealed(comment: CommentID) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE comments SET sealed = NULL WHERE id = ?", arguments: [comment.description])
        }
    }

    // MARK: Encrypted blobs

    func insertBlob(_ blob: SealedBlobRecord) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO e2e_blobs (id, group_id, owner_id, byte_size, ready, created_at)
                    VALUES (?, ?, ?, ?, 0, ?)
                    """,
                arguments: [
                    UUIDText.format(blob.id), blob.groupID.description, blob.ownerID.description, blob.byteSize,
                    blob.createdAt.sqliteValue,
                ])
        }
    }

    func blob(_ id: UUID) async throws -> SealedBlobRecord? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.blobColumns) FROM e2e_blobs WHERE id = ?", arguments: [UUIDText.format(id)]
            ).flatMap(Self.blob)
        }
    }

    func markBlobReady(_ id: UUID) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE e2e_blobs SET ready = 1 WHERE id = ?", arguments: [UUIDText.format(id)])
        }
    }

    func attachBlobs(_ ids: [UUID], to post: PostID, owner: UserID, group: GroupID) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE e2e_blobs SET post_id = ?
                    WHERE id IN (SELECT value FROM json_each(?)) AND owner_id = ? AND group_id = ? AND ready = 1
                      AND post_id IS NULL AND discarded_at IS NULL
                    """,
                arguments: [
                    post.description, SQLiteIDList.json(uuids: ids), owner.description,
                    group.description,
                ])
            return db.changesCount
        }
    }

    func discardBlobs(of post: PostID, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE e2e_blobs SET discarded_at = ? WHERE post_id = ? AND discarded_at IS NULL",
                arguments: [date.sqliteValue, post.description])
        }
    }

    func discardBlobs(in group: GroupID, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE e2e_blobs SET discarded_at = ? WHERE group_id = ? AND discarded_at IS NULL",
                arguments: [date.sqliteValue, group.description])
        }
    }

    func sweepableBlobs(staleBefore: Date, limit: Int) async throws -> [SealedBlobRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.blobColumns) FROM e2e_blobs
                    WHERE discarded_at IS NOT NULL OR (post_id IS NULL AND created_at < ?)
                    LIMIT ?
                    """,
                arguments: [staleBefore.sqliteValue, limit]
            ).compactMap(Self.blob)
        }
    }

    func deleteBlobs(_ ids: [UUID]) async throws {
        guard !ids.isEmpty else { return }
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM e2e_blobs WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [SQLiteIDList.json(uuids: ids)])
        }
    }

    // MARK: Rows

    private static func statements(
        _ db: Database, _ sql: String, _ arguments: StatementArguments
    ) throws
        -> [E2EStatement]
    {
        try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
            UUIDText.parse(row[2] as String).map { E2EStatement(body: row[0], signature: row[1], signer: $0) }
        }
    }

    static func device(_ row: Row) -> E2EDeviceRecord? {
        guard let id = UUIDText.parse(row[0] as String), let user = UserID(row[1] as String) else { return nil }
        return E2EDeviceRecord(
            id: id, userID: user, name: row[2], hpkePublic: row[3], signingPublic: row[4], recovery: row[5],
            addedAt: row[6], revokedAt: row[7])
    }

    static func blob(_ row: Row) -> SealedBlobRecord? {
        guard let id = UUIDText.parse(row[0] as String), let group = GroupID(row[1] as String),
            let owner = UserID(row[2] as String)
        else { return nil }
        return SealedBlobRecord(
            id: id, groupID: group, ownerID: owner, byteSize: row[3], ready: row[4],
            postID: (row[5] as String?).flatMap(PostID.init), createdAt: Date(sqliteValue: row[6]),
            discardedAt: (row[7] as Double?).map(Date.init(sqliteValue:)))
    }
}
