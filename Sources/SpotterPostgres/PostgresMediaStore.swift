import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresMediaStore: MediaStore {
    let database: PostgresDatabase
    let logger: Logger

    func insert(_ media: MediaRecord) async throws {
        try await database.query(
            PostgresQuery(
                MediaSQL.insert.postgres,
                [
                    "id": PostgresBind(media.id.rawValue), "owner": PostgresBind(media.ownerID.rawValue),
                    "purpose": PostgresBind(media.purpose.rawValue), "status": PostgresBind(media.status.rawValue),
                    "contentType": PostgresBind(media.contentType), "byteSize": PostgresBind(media.byteSize),
                    "description": PostgresBind(media.description), "focusX": PostgresBind(media.focus?.x),
                    "focusY": PostgresBind(media.focus?.y), "at": PostgresBind(media.createdAt),
                ]), logger: logger)
    }

    func find(_ id: MediaID) async throws -> MediaRecord? {
        try await records(PostgresQuery(MediaSQL.find.postgres, ["id": PostgresBind(id.rawValue)])).first
    }

    func find(ids: [MediaID]) async throws -> [MediaRecord] {
        guard !ids.isEmpty else { return [] }
        return try await records(PostgresQuery(MediaSQL.findAll.postgres, ["ids": PostgresBind(ids.map(\.rawValue))]))
    }

    func startProcessing(_ id: MediaID, at date: Date) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(
                MediaSQL.startProcessing.postgres, ["at": PostgresBind(date), "id": PostgresBind(id.rawValue)]),
            logger: logger)
        var changed = false
        for try await _ in rows { changed = true }
        return changed
    }

    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [MediaRecord] {
        try await records(
            PostgresQuery(
                MediaSQL.claimDue.postgres,
                ["leaseUntil": PostgresBind(leaseUntil), "now": PostgresBind(now), "limit": PostgresBind(limit)]))
    }

    func markReady(_ id: MediaID, width: Int, height: Int, blurhash: String, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                MediaSQL.markReady.postgres,
                [
                    "width": PostgresBind(width), "height": PostgresBind(height), "blurhash": PostgresBind(blurhash),
                    "id": PostgresBind(id.rawValue),
                ]), logger: logger)
    }

    func markFailed(_ id: MediaID, reason: String, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                MediaSQL.markFailed.postgres, ["reason": PostgresBind(reason), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    func retry(_ id: MediaID, at runAt: Date) async throws {
        try await database.query(
            PostgresQuery(MediaSQL.retry.postgres, ["runAt": PostgresBind(runAt), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    func updateDetails(_ id: MediaID, description: String?, focus: FocalPoint?) async throws {
        try await database.query(
            PostgresQuery(
                MediaSQL.updateDetails.postgres,
                [
                    "description": PostgresBind(description), "focusX": PostgresBind(focus?.x),
                    "focusY": PostgresBind(focus?.y), "id": PostgresBind(id.rawValue),
                ]), logger: logger)
    }

    func attach(_ ids: [MediaID], to post: PostID, at date: Date) async throws {
        let keep = ids.map(\.rawValue)
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    MediaSQL.discardDetached.postgres,
                    ["at": PostgresBind(date), "post": PostgresBind(post.rawValue), "keep": PostgresBind(keep)]),
                logger: logger)
            for (position, id) in ids.enumerated() {
                try await connection.query(
                    PostgresQuery(
                        MediaSQL.attach.postgres,
                        [
                            "post": PostgresBind(post.rawValue), "position": PostgresBind(position),
                            "at": PostgresBind(date), "id": PostgresBind(id.rawValue),
                        ]), logger: logger)
            }
        }
    }

    func setAvatar(_ id: MediaID?, of subject: AvatarSubject, at date: Date) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                PostgresQuery(
                    MediaSQL.discardOldAvatars.postgres,
                    ["at": PostgresBind(date), "subject": PostgresBind(subject.key), "id": PostgresBind(id?.rawValue)]),
                logger: logger)
            if let id {
                try await connection.query(
                    PostgresQuery(
                        MediaSQL.setAvatar.postgres,
                        [
                            "at": PostgresBind(date), "subject": PostgresBind(subject.key),
                            "id": PostgresBind(id.rawValue),
                        ]),
                    logger: logger)
            }
        }
    }

    func discard(_ ids: [MediaID], at date: Date) async throws {
        guard !ids.isEmpty else { return }
        try await database.query(
            PostgresQuery(
                MediaSQL.discard.postgres, ["at": PostgresBind(date), "ids": PostgresBind(ids.map(\.rawValue))]),
            logger: logger)
    }

    func discard(post: PostID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                MediaSQL.discardPost.postgres, ["at": PostgresBind(date), "post": PostgresBind(post.rawValue)]),
            logger: logger)
    }

    func sweepable(staleBefore: Date, limit: Int) async throws -> [MediaRecord] {
        try await records(
            PostgresQuery(
                MediaSQL.sweepable.postgres, ["staleBefore": PostgresBind(staleBefore), "limit": PostgresBind(limit)]))
    }

    func delete(_ ids: [MediaID]) async throws {
        guard !ids.isEmpty else { return }
        try await database.query(
            PostgresQuery(MediaSQL.delete.postgres, ["ids": PostgresBind(ids.map(\.rawValue))]), logger: logger)
    }

    func countUnattached(of owner: UserID, since: Date) async throws -> Int {
        let rows = try await database.query(
            PostgresQuery(
                MediaSQL.countUnattached.postgres,
                ["owner": PostgresBind(owner.rawValue), "since": PostgresBind(since)]),
            logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    func signingKey(candidate: Data) async throws -> Data {
        let bytes = ByteBuffer(bytes: candidate)  // bytea; a [UInt8] would bind as "char"[]
        try await database.query(
            PostgresQuery(MediaSQL.offerSigningKey.postgres, ["key": PostgresBind(bytes), "at": PostgresBind(Date())]),
            logger: logger)
        let rows = try await database.query(PostgresQuery(MediaSQL.signingKey.postgres, [:]), logger: logger)
        for try await key in rows.decode(ByteBuffer.self) { return Data(buffer: key) }
        return candidate
    }

    private func records(_ query: PostgresQuery) async throws -> [MediaRecord] {
        var records: [MediaRecord] = []
        for try await row in try await database.query(query, logger: logger) {
            let r = row.makeRandomAccess()
            guard let purpose = MediaPurpose(rawValue: try r[2].decode(String.self)),
                let status = MediaStatus(rawValue: try r[3].decode(String.self))
            else { continue }
            let x = try r[11].decode(Double?.self)
            let y = try r[12].decode(Double?.self)
            records.append(
                MediaRecord(
                    id: MediaID(rawValue: try r[0].decode(UUID.self)),
                    ownerID: UserID(rawValue: try r[1].decode(UUID.self)),
                    purpose: purpose, status: status, contentType: try r[4].decode(String.self),
                    byteSize: try r[5].decode(Int.self), reason: try r[6].decode(String?.self),
                    width: try r[7].decode(Int?.self), height: try r[8].decode(Int?.self),
                    blurhash: try r[9].decode(String?.self), description: try r[10].decode(String?.self),
                    focus: x.flatMap { x in y.map { FocalPoint(x: x, y: $0) } },
                    postID: try r[13].decode(UUID?.self).map(PostID.init), position: try r[14].decode(Int?.self),
                    attachedAt: try r[15].decode(Date?.self), discardedAt: try r[16].decode(Date?.self),
                    avatarOf: try r[19].decode(String?.self).flatMap(AvatarSubject.init(key:)),
                    createdAt: try r[17].decode(Date.self), attempts: try r[18].decode(Int.self)))
        }
        return records
    }
}
