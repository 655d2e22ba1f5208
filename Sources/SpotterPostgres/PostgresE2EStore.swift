import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// `E2EStore` on PostgreSQL. An append locks its chain's owner row (the person's, the group's) for the length
/// of its transaction, so a chain's length checked and its statements inserted are one compare-and-swap across
/// nodes.
struct PostgresE2EStore: E2EStore {
    let database: PostgresDatabase
    let logger: Logger

    // MARK: Device chains

    func deviceStatements(of user: UserID) async throws -> [E2EStatement] {
        try await statements(PostgresQuery(E2ESQL.deviceStatements.postgres, ["user": PostgresBind(user.rawValue)]))
    }

    func appendDeviceStatement(
        _ statement: E2EStatement, hash: String, seq: Int, of user: UserID, devices: [E2EDeviceRecord]
    ) async throws -> Bool {
        try await database.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SELECT 1 FROM users WHERE id = \(user.rawValue) FOR UPDATE", logger: logger)
                .collect()
            var length = 0
            for try await count in try await connection.query(
                PostgresQuery(E2ESQL.deviceChainLength.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger
            ).decode(Int.self) { length = count }
            guard length == seq else { return false }
            try await connection.query(
                PostgresQuery(
                    E2ESQL.appendDeviceStatement.postgres,
                    [
                        "user": PostgresBind(user.rawValue), "seq": PostgresBind(seq),
                        "body": PostgresBind(statement.body),
                        "signature": PostgresBind(statement.signature), "signer": PostgresBind(statement.signer),
                        "hash": PostgresBind(hash),
                    ]), logger: logger)
            for device in devices {
                try await connection.query(
                    PostgresQuery(
                        E2ESQL.upsertDevice.postgres,
                        [
                            "id": PostgresBind(device.id), "user": PostgresBind(device.userID.rawValue),
                            "name": PostgresBind(device.name), "hpke": PostgresBind(device.hpkePublic),
                            "signing": PostgresBind(device.signingPublic), "recovery": PostgresBind(device.recovery),
                            "addedAt": PostgresBind(device.addedAt), "revokedAt": PostgresBind(device.revokedAt),
                        ]), logger: logger)
            }
            return true
        }
    }

    func devices(of users: [UserID]) async throws -> [E2EDeviceRecord] {
        guard !users.isEmpty else { return [] }
        return try await deviceRecords(
            PostgresQuery(E2ESQL.devicesOf.postgres, ["users": PostgresBind(users.map(\.rawValue))]))
    }

    func device(_ id: UUID) async throws -> E2EDeviceRecord? {
        try await deviceRecords(PostgresQuery(E2ESQL.device.postgres, ["id": PostgresBind(id)])).first
    }

    func recoveryKit(of user: UserID) async throws -> String? {
        for try await kit in try await database.query(
            PostgresQuery(E2ESQL.recoveryKit.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger
        ).decode(String.self) { return kit }
        return nil
    }

    func setRecoveryKit(_ kit: String, of user: UserID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                E2ESQL.setRecoveryKit.postgres,
                ["user": PostgresBind(user.rawValue), "kit": PostgresBind(kit), "at": PostgresBind(date)]),
            logger: logger)
    }

    // MARK: Group chains and keys

    func keyState(of group: GroupID) async throws -> E2EGroupRecord? {
        for try await (history, epoch, length, head) in try await database.query(
            PostgresQuery(E2ESQL.keyState.postgres, ["group": PostgresBind(group.rawValue)]), logger: logger
        ).decode((Bool, Int?, Int, String).self) {
            return E2EGroupRecord(groupID: group, history: history, epoch: epoch, chainLength: length, head: head)
        }
        return nil
    }

    func groupStatements(of group: GroupID) async throws -> [E2EStatement] {
        try await statements(PostgresQuery(E2ESQL.groupStatements.postgres, ["group": PostgresBind(group.rawValue)]))
    }

    func appendGroupStatements(
        _ statements: [(statement: E2EStatement, hash: String)], to group: GroupID, from: Int, history: Bool,
        members: [UserID: GroupRole]
    ) async throws -> Bool {
        guard let head = statements.last?.hash else { return false }
        return try await database.withTransaction(logger: logger) { connection in
            _ = try await connection.query(
                "SELECT 1 FROM groups WHERE id = \(group.rawValue) FOR UPDATE", logger: logger
            ).collect()
            var length = 0
            for try await value in try await connection.query(
                PostgresQuery(E2ESQL.groupChainLength.postgres, ["group": PostgresBind(group.rawValue)]), logger: logger
            ).decode(Int.self) { length = value }
            guard length == from else { return false }
            for (offset, item) in statements.enumerated() {
                try await connection.query(
                    PostgresQuery(
                        E2ESQL.appendGroupStatement.postgres,
                        [
                            "group": PostgresBind(group.rawValue), "seq": PostgresBind(from + offset),
                            "body": PostgresBind(item.statement.body),
                            "signature": PostgresBind(item.statement.signature),
                            "signer": PostgresBind(item.statement.signer), "hash": PostgresBind(item.hash),
                        ]), logger: logger)
            }
            try await connection.query(
                PostgresQuery(
                    E2ESQL.setGroupHead.postgres,
                    [
                        "group": PostgresBind(group.rawValue), "history": PostgresBind(history),
                        "length": PostgresBind(from + statements.count), "head": PostgresBind(head),
                    ]), logger: logger)
            try await connection.query(
                PostgresQuery(E2ESQL.clearChainMembers.postgres, ["group": PostgresBind(group.rawValue)]),
                logger: logger)
            for (user, role) in members {
                try await connection.query(
                    PostgresQuery(
                        E2ESQL.addChainMember.postgres,
                        [
                            "group": PostgresBind(group.rawValue), "user": PostgresBind(user.rawValue),
                            "role": PostgresBind(role.rawValue),
                        ]), logger: logger)
            }
            return true
        }
    }

    func chainMembers(of group: GroupID) async throws -> [UserID: GroupRole] {
        var members: [UserID: GroupRole] = [:]
        for try await (user, role) in try await database.query(
            PostgresQuery(E2ESQL.chainMembers.postgres, ["group": PostgresBind(group.rawValue)]), logger: logger
        ).decode((UUID, String).self) {
            if let role = GroupRole(rawValue: role) { members[UserID(rawValue: user)] = role }
        }
        return members
    }

    func startEpoch(_ number: Int, of group: GroupID, keys: [E2EDeviceKey]) async throws -> Bool {
        try await database.withTransaction(logger: logger) { connection in
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
                PostgresQuery(
                    E2ESQL.setEpoch.postgres, ["epoch": PostgresBind(number), "group": PostgresBind(group.rawValue)]),
                logger: logger)
            for key in keys {
                try await connection.query(
                    PostgresQuery(
                        E2ESQL.insertKey.postgres,
                        [
                            "group": PostgresBind(group.rawValue), "device": PostgresBind(key.deviceID),
                            "epoch": PostgresBind(number), "key": PostgresBind(key.key),
                        ]), logger: logger)
            }
            return true
        }
    }

    func addKeys(_ keys: [E2EEpochKey], in group: GroupID) async throws {
        guard !keys.isEmpty else { return }
        try await database.withTransaction(logger: logger) { connection in
            for key in keys {
                try await connection.query(
                    PostgresQuery(
                        E2ESQL.addKey.postgres,
                        [
                            "group": PostgresBind(group.rawValue), "device": PostgresBind(key.deviceID),
                            "epoch": PostgresBind(key.epoch), "key": PostgresBind(key.key),
                        ]), logger: logger)
            }
        }
    }

    func keys(of device: UUID, in group: GroupID) async throws -> [E2EEpochKey] {
        var keys: [E2EEpochKey] = []
        for try await (epoch, key) in try await database.query(
            PostgresQuery(
                E2ESQL.keys.postgres, ["group": PostgresBind(group.rawValue), "device": PostgresBind(device)]),
            logger: logger
        ).decode((Int, String).self) { keys.append(E2EEpochKey(deviceID: device, epoch: epoch, key: key)) }
        return keys
    }

    func currentHolders(of group: GroupID) async throws -> [E2EDeviceRecord] {
        try await deviceRecords(
            PostgresQuery(E2ESQL.currentHolders.postgres, ["group": PostgresBind(group.rawValue)]))
    }

    func forget(_ group: GroupID) async throws {
        try await database.withTransaction(logger: logger) { connection in
            for statement in E2ESQL.forget {
                try await connection.query(
                    PostgresQuery(statement.postgres, ["group": PostgresBind(group.rawValue)]), logger: logger)
            }
        }
    }

    func eraseSealed(post: PostID) async throws {
        try await database.withTransaction(logger: logger) { connection in
            for statement in E2ESQL.eraseSealedPost {
                try await connection.query(
                    PostgresQuery(statement.postgres, ["post": PostgresBind(post.rawValue)]), logger: logger)
            }
        }
    }

    func eraseSealed(comment: CommentID) async throws {
        try await database.query(
            PostgresQuery(E2ESQL.eraseSealedComment.postgres, ["comment": PostgresBind(comment.rawValue)]),
            logger: logger)
    }

    // MARK: Encrypted blobs

    func insertBlob(_ blob: SealedBlobRecord) async throws {
        try await database.query(
            PostgresQuery(
                E2ESQL.insertBlob.postgres,
                [
                    "id": PostgresBind(blob.id), "group": PostgresBind(blob.groupID.rawValue),
                    "owner": PostgresBind(blob.ownerID.rawValue), "size": PostgresBind(blob.byteSize),
                    "createdAt": PostgresBind(blob.createdAt),
                ]), logger: logger)
    }

    func blob(_ id: UUID) async throws -> SealedBlobRecord? {
        try await blobs(PostgresQuery(E2ESQL.blob.postgres, ["id": PostgresBind(id)])).first
    }

    func markBlobReady(_ id: UUID) async throws {
        try await database.query(PostgresQuery(E2ESQL.markBlobReady.postgres, ["id": PostgresBind(id)]), logger: logger)
    }

    func attachBlobs(_ ids: [UUID], to post: PostID, owner: UserID, group: GroupID) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        var count = 0
        for try await _ in try await database.query(
            PostgresQuery(
                E2ESQL.attachBlobs.postgres,
                [
                    "post": PostgresBind(post.rawValue), "ids": PostgresBind(ids),
                    "owner": PostgresBind(owner.rawValue),
                    "group": PostgresBind(group.rawValue),
                ]), logger: logger)
        { count += 1 }
        return count
    }

    func discardBlobs(of post: PostID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                E2ESQL.discardBlobsOfPost.postgres, ["at": PostgresBind(date), "post": PostgresBind(post.rawValue)]),
            logger: logger)
    }

    func discardBlobs(in group: GroupID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                E2ESQL.discardBlobsInGroup.postgres, ["at": PostgresBind(date), "group": PostgresBind(group.rawValue)]),
            logger: logger)
    }

    func sweepableBlobs(staleBefore: Date, limit: Int) async throws -> [SealedBlobRecord] {
        try await blobs(
            PostgresQuery(
                E2ESQL.sweepableBlobs.postgres,
                ["staleBefore": PostgresBind(staleBefore), "limit": PostgresBind(limit)]))
    }

    func deleteBlobs(_ ids: [UUID]) async throws {
        guard !ids.isEmpty else { return }
        try await database.query(PostgresQuery(E2ESQL.deleteBlobs.postgres, ["ids": PostgresBind(ids)]), logger: logger)
    }

    // MARK: Rows

    private func statements(_ query: PostgresQuery) async throws -> [E2EStatement] {
        var statements: [E2EStatement] = []
        for try await (body, signature, signer) in try await database.query(query, logger: logger).decode(
            (String, String, UUID).self)
        {
            statements.append(E2EStatement(body: body, signature: signature, signer: signer))
        }
        return statements
    }

    private func deviceRecords(_ query: PostgresQuery) async throws -> [E2EDeviceRecord] {
        var devices: [E2EDeviceRecord] = []
        for try await (id, user, name, hpke, signing, recovery, added, revoked) in try await database.query(
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
        for try await (id, group, owner, size, ready, post, created, discarded) in try await database.query(
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
