import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// `E2EStore` on SQLite. The writer runs one write at a time, so a chain's length checked and its statement
/// inserted inside one `write` is a compare-and-swap.
struct SQLiteE2EStore: E2EStore {
    let database: SQLiteDatabase

    // MARK: Device chains

    func deviceStatements(of user: UserID) async throws -> [E2EStatement] {
        try await database.read { db in
            try Self.statements(db, E2ESQL.deviceStatements.sqlite, ["user": user.description])
        }
    }

    func appendDeviceStatement(
        _ statement: E2EStatement, hash: String, seq: Int, of user: UserID, devices: [E2EDeviceRecord]
    ) async throws -> Bool {
        try await database.write { db in
            let length =
                try Int.fetchOne(
                    db, sql: E2ESQL.deviceChainLength.sqlite, arguments: ["user": user.description]) ?? 0
            guard length == seq else { return false }
            try db.execute(
                sql: E2ESQL.appendDeviceStatement.sqlite,
                arguments: [
                    "user": user.description, "seq": seq, "body": statement.body, "signature": statement.signature,
                    "signer": UUIDText.format(statement.signer), "hash": hash,
                ])
            for device in devices {
                try db.execute(
                    sql: E2ESQL.upsertDevice.sqlite,
                    arguments: [
                        "id": UUIDText.format(device.id), "user": device.userID.description, "name": device.name,
                        "hpke": device.hpkePublic, "signing": device.signingPublic, "recovery": device.recovery,
                        "addedAt": device.addedAt, "revokedAt": device.revokedAt,
                    ])
            }
            return true
        }
    }

    func devices(of users: [UserID]) async throws -> [E2EDeviceRecord] {
        guard !users.isEmpty else { return [] }
        return try await database.read { db in
            try Row.fetchAll(
                db,
                sql: E2ESQL.devicesOf.sqlite, arguments: ["users": SQLiteIDList.json(users)]
            ).compactMap(Self.device)
        }
    }

    func device(_ id: UUID) async throws -> E2EDeviceRecord? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: E2ESQL.device.sqlite, arguments: ["id": UUIDText.format(id)]
            ).flatMap(Self.device)
        }
    }

    func recoveryKit(of user: UserID) async throws -> String? {
        try await database.read { db in
            try String.fetchOne(
                db, sql: E2ESQL.recoveryKit.sqlite, arguments: ["user": user.description])
        }
    }

    func setRecoveryKit(_ kit: String, of user: UserID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.setRecoveryKit.sqlite,
                arguments: ["user": user.description, "kit": kit, "at": date.sqliteValue])
        }
    }

    // MARK: Group chains and keys

    func keyState(of group: GroupID) async throws -> E2EGroupRecord? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: E2ESQL.keyState.sqlite, arguments: ["group": group.description]
            ).map { row in
                E2EGroupRecord(groupID: group, history: row[0], epoch: row[1], chainLength: row[2], head: row[3])
            }
        }
    }

    func groupStatements(of group: GroupID) async throws -> [E2EStatement] {
        try await database.read { db in
            try Self.statements(db, E2ESQL.groupStatements.sqlite, ["group": group.description])
        }
    }

    func appendGroupStatements(
        _ statements: [(statement: E2EStatement, hash: String)], to group: GroupID, from: Int, history: Bool,
        members: [UserID: GroupRole]
    ) async throws -> Bool {
        try await database.write { db in
            let length =
                try Int.fetchOne(
                    db, sql: E2ESQL.groupChainLength.sqlite, arguments: ["group": group.description])
                ?? 0
            guard length == from, let head = statements.last?.hash else { return false }
            for (offset, item) in statements.enumerated() {
                try db.execute(
                    sql: E2ESQL.appendGroupStatement.sqlite,
                    arguments: [
                        "group": group.description, "seq": from + offset, "body": item.statement.body,
                        "signature": item.statement.signature, "signer": UUIDText.format(item.statement.signer),
                        "hash": item.hash,
                    ])
            }
            try db.execute(
                sql: E2ESQL.setGroupHead.sqlite,
                arguments: [
                    "group": group.description, "history": history, "length": from + statements.count, "head": head,
                ])
            try db.execute(sql: E2ESQL.clearChainMembers.sqlite, arguments: ["group": group.description])
            for (user, role) in members {
                try db.execute(
                    sql: E2ESQL.addChainMember.sqlite,
                    arguments: ["group": group.description, "user": user.description, "role": role.rawValue])
            }
            return true
        }
    }

    func chainMembers(of group: GroupID) async throws -> [UserID: GroupRole] {
        try await database.read { db in
            var members: [UserID: GroupRole] = [:]
            for row in try Row.fetchAll(
                db, sql: E2ESQL.chainMembers.sqlite, arguments: ["group": group.description])
            {
                if let user = UserID(row[0] as String), let role = GroupRole(rawValue: row[1]) { members[user] = role }
            }
            return members
        }
    }

    func startEpoch(_ number: Int, of group: GroupID, keys: [E2EDeviceKey]) async throws -> Bool {
        try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT epoch FROM e2e_groups WHERE group_id = ?", arguments: [group.description])
            else { return false }
            let current: Int? = row[0]
            guard number == (current.map { $0 + 1 } ?? 0) else { return false }
            try db.execute(sql: E2ESQL.setEpoch.sqlite, arguments: ["epoch": number, "group": group.description])
            for key in keys {
                try db.execute(
                    sql: E2ESQL.insertKey.sqlite,
                    arguments: [
                        "group": group.description, "device": UUIDText.format(key.deviceID), "epoch": number,
                        "key": key.key,
                    ])
            }
            return true
        }
    }

    func addKeys(_ keys: [E2EEpochKey], in group: GroupID) async throws {
        try await database.write { db in
            for key in keys {
                try db.execute(
                    sql: E2ESQL.addKey.sqlite,
                    arguments: [
                        "group": group.description, "device": UUIDText.format(key.deviceID), "epoch": key.epoch,
                        "key": key.key,
                    ])
            }
        }
    }

    func keys(of device: UUID, in group: GroupID) async throws -> [E2EEpochKey] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: E2ESQL.keys.sqlite, arguments: ["group": group.description, "device": UUIDText.format(device)]
            ).map { E2EEpochKey(deviceID: device, epoch: $0[0], key: $0[1]) }
        }
    }

    func currentHolders(of group: GroupID) async throws -> [E2EDeviceRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: E2ESQL.currentHolders.sqlite, arguments: ["group": group.description]
            ).compactMap(Self.device)
        }
    }

    func forget(_ group: GroupID) async throws {
        try await database.write { db in
            for statement in E2ESQL.forget {
                try db.execute(sql: statement.sqlite, arguments: ["group": group.description])
            }
        }
    }

    func eraseSealed(post: PostID) async throws {
        try await database.write { db in
            for statement in E2ESQL.eraseSealedPost {
                try db.execute(sql: statement.sqlite, arguments: ["post": post.description])
            }
        }
    }

    func eraseSealed(comment: CommentID) async throws {
        try await database.write { db in
            try db.execute(sql: E2ESQL.eraseSealedComment.sqlite, arguments: ["comment": comment.description])
        }
    }

    // MARK: Encrypted blobs

    func insertBlob(_ blob: SealedBlobRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.insertBlob.sqlite,
                arguments: [
                    "id": UUIDText.format(blob.id), "group": blob.groupID.description,
                    "owner": blob.ownerID.description, "size": blob.byteSize, "createdAt": blob.createdAt.sqliteValue,
                ])
        }
    }

    func blob(_ id: UUID) async throws -> SealedBlobRecord? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: E2ESQL.blob.sqlite, arguments: ["id": UUIDText.format(id)]
            ).flatMap(Self.blob)
        }
    }

    func markBlobReady(_ id: UUID) async throws {
        try await database.write { db in
            try db.execute(sql: E2ESQL.markBlobReady.sqlite, arguments: ["id": UUIDText.format(id)])
        }
    }

    func attachBlobs(_ ids: [UUID], to post: PostID, owner: UserID, group: GroupID) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await database.write { db in
            try Row.fetchAll(
                db, sql: E2ESQL.attachBlobs.sqlite,
                arguments: [
                    "post": post.description, "ids": SQLiteIDList.json(uuids: ids), "owner": owner.description,
                    "group": group.description,
                ]
            ).count
        }
    }

    func discardBlobs(of post: PostID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.discardBlobsOfPost.sqlite, arguments: ["at": date.sqliteValue, "post": post.description])
        }
    }

    func discardBlobs(in group: GroupID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.discardBlobsInGroup.sqlite,
                arguments: ["at": date.sqliteValue, "group": group.description])
        }
    }

    func sweepableBlobs(staleBefore: Date, limit: Int) async throws -> [SealedBlobRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: E2ESQL.sweepableBlobs.sqlite, arguments: ["staleBefore": staleBefore.sqliteValue, "limit": limit]
            ).compactMap(Self.blob)
        }
    }

    func deleteBlobs(_ ids: [UUID]) async throws {
        guard !ids.isEmpty else { return }
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.deleteBlobs.sqlite, arguments: ["ids": SQLiteIDList.json(uuids: ids)])
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
