import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteMediaStore: MediaStore {
    let database: SQLiteDatabase

    func insert(_ media: MediaRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: MediaSQL.insert.sqlite,
                arguments: [
                    "id": media.id.description, "owner": media.ownerID.description, "purpose": media.purpose.rawValue,
                    "status": media.status.rawValue, "contentType": media.contentType, "byteSize": media.byteSize,
                    "description": media.description, "focusX": media.focus?.x, "focusY": media.focus?.y,
                    "at": media.createdAt.sqliteValue,
                ])
        }
    }

    func find(_ id: MediaID) async throws -> MediaRecord? {
        try await database.read { db in
            try Row.fetchOne(
                cached: db, sql: MediaSQL.find.sqlite, arguments: ["id": id.description]
            ).flatMap(Self.record)
        }
    }

    func find(ids: [MediaID]) async throws -> [MediaRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in
            try Row.fetchAll(
                cached: db, sql: MediaSQL.findAll.sqlite, arguments: ["ids": SQLiteIDList.json(ids)]
            ).compactMap(Self.record)
        }
    }

    func startProcessing(_ id: MediaID, at date: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: MediaSQL.startProcessing.sqlite, arguments: ["at": date.sqliteValue, "id": id.description])
            return db.changesCount > 0
        }
    }

    /// The writer runs one write at a time, so reading the due jobs and leasing them is one step.
    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [MediaRecord] {
        try await database.write { db in
            let due = try Row.fetchAll(
                cached: db,
                sql: MediaSQL.dueJobs.sqlite, arguments: ["now": now.sqliteValue, "limit": limit]
            ).compactMap(Self.record)
            guard !due.isEmpty else { return [] }
            try db.execute(
                cached: MediaSQL.lease.sqlite,
                arguments: ["leaseUntil": leaseUntil.sqliteValue, "ids": SQLiteIDList.json(due.map(\.id))])
            return due
        }
    }

    func markReady(_ id: MediaID, width: Int, height: Int, blurhash: String, at date: Date) async throws {
        try await execute(
            MediaSQL.markReady, ["width": width, "height": height, "blurhash": blurhash, "id": id.description])
    }

    func markFailed(_ id: MediaID, reason: String, at date: Date) async throws {
        try await execute(MediaSQL.markFailed, ["reason": reason, "id": id.description])
    }

    func retry(_ id: MediaID, at runAt: Date) async throws {
        try await execute(MediaSQL.retry, ["runAt": runAt.sqliteValue, "id": id.description])
    }

    func updateDetails(_ id: MediaID, description: String?, focus: FocalPoint?) async throws {
        try await execute(
            MediaSQL.updateDetails,
            ["description": description, "focusX": focus?.x, "focusY": focus?.y, "id": id.description])
    }

    func attach(_ ids: [MediaID], to post: PostID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: MediaSQL.discardDetached.sqlite,
                arguments: ["at": date.sqliteValue, "post": post.description, "keep": SQLiteIDList.json(ids)])
            for (position, id) in ids.enumerated() {
                try db.execute(
                    cached: MediaSQL.attach.sqlite,
                    arguments: [
                        "post": post.description, "position": position, "at": date.sqliteValue, "id": id.description,
                    ])
            }
        }
    }

    func setAvatar(_ id: MediaID?, of subject: AvatarSubject, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: MediaSQL.discardOldAvatars.sqlite,
                arguments: ["at": date.sqliteValue, "subject": subject.key, "id": id?.description])
            if let id {
                try db.execute(
                    cached: MediaSQL.setAvatar.sqlite,
                    arguments: ["at": date.sqliteValue, "subject": subject.key, "id": id.description])
            }
        }
    }

    func discard(_ ids: [MediaID], at date: Date) async throws {
        guard !ids.isEmpty else { return }
        try await execute(MediaSQL.discard, ["at": date.sqliteValue, "ids": SQLiteIDList.json(ids)])
    }

    func discard(post: PostID, at date: Date) async throws {
        try await execute(MediaSQL.discardPost, ["at": date.sqliteValue, "post": post.description])
    }

    func sweepable(staleBefore: Date, limit: Int) async throws -> [MediaRecord] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: MediaSQL.sweepable.sqlite, arguments: ["staleBefore": staleBefore.sqliteValue, "limit": limit]
            ).compactMap(Self.record)
        }
    }

    func delete(_ ids: [MediaID]) async throws {
        guard !ids.isEmpty else { return }
        try await execute(MediaSQL.delete, ["ids": SQLiteIDList.json(ids)])
    }

    func countUnattached(of owner: UserID, since: Date) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                cached: db,
                sql: MediaSQL.countUnattached.sqlite,
                arguments: ["owner": owner.description, "since": since.sqliteValue]) ?? 0
        }
    }

    func signingKey(candidate: Data) async throws -> Data {
        try await database.write { db in
            try db.execute(
                cached: MediaSQL.offerSigningKey.sqlite, arguments: ["key": candidate, "at": Date().sqliteValue])
            return try Data.fetchOne(cached: db, sql: MediaSQL.signingKey.sqlite) ?? candidate
        }
    }

    private func execute(_ statement: SQLStatement, _ arguments: StatementArguments) async throws {
        try await database.write { db in try db.execute(cached: statement.sqlite, arguments: arguments) }
    }

    static func record(_ row: Row) -> MediaRecord? {
        guard let id = MediaID(row[0] as String), let owner = UserID(row[1] as String),
            let purpose = MediaPurpose(rawValue: row[2]), let status = MediaStatus(rawValue: row[3])
        else { return nil }
        let focus: FocalPoint? = (row[11] as Double?).flatMap { x in
            (row[12] as Double?).map { FocalPoint(x: x, y: $0) }
        }
        return MediaRecord(
            id: id, ownerID: owner, purpose: purpose, status: status, contentType: row[4], byteSize: row[5],
            reason: row[6], width: row[7], height: row[8], blurhash: row[9], description: row[10], focus: focus,
            postID: (row[13] as String?).flatMap(PostID.init), position: row[14],
            attachedAt: (row[15] as Double?).map(Date.init(sqliteValue:)),
            discardedAt: (row[16] as Double?).map(Date.init(sqliteValue:)),
            avatarOf: (row[19] as String?).flatMap(AvatarSubject.init(key:)), createdAt: Date(sqliteValue: row[17]),
            attempts: row[18])
    }
}
