import Foundation
import GRDB
import SpotterCore
import SpotterModels

struct SQLiteMediaStore: MediaStore {
    let database: SQLiteDatabase

    static let columns = """
        id, owner_id, purpose, status, content_type, byte_size, reason, width, height, blurhash, description,
        focus_x, focus_y, post_id, position, attached_at, discarded_at, created_at, attempts, avatar_of
        """

    func insert(_ media: MediaRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    INSERT INTO media (id, owner_id, purpose, status, content_type, byte_size, description, focus_x,
                                       focus_y, created_at, run_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    media.id.description, media.ownerID.description, media.purpose.rawValue, media.status.rawValue,
                    media.contentType, media.byteSize, media.description, media.focus?.x, media.focus?.y,
                    media.createdAt.sqliteValue, media.createdAt.sqliteValue,
                ])
        }
    }

    func find(_ id: MediaID) async throws -> MediaRecord? {
        try await database.read { db in
            try Row.fetchOne(
                cached: db, sql: "SELECT \(Self.columns) FROM media WHERE id = ?", arguments: [id.description]
            ).flatMap(Self.record)
        }
    }

    func find(ids: [MediaID]) async throws -> [MediaRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in
            try Row.fetchAll(
                cached: db, sql: "SELECT \(Self.columns) FROM media WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [SQLiteIDList.json(ids)]
            ).compactMap(Self.record)
        }
    }

    func startProcessing(_ id: MediaID, at date: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: "UPDATE media SET status = 'processing', run_at = ? WHERE id = ? AND status = 'pending'",
                arguments: [date.sqliteValue, id.description])
            return db.changesCount > 0
        }
    }

    /// The writer runs one write at a time, so reading the due jobs and leasing them is one step.
    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [MediaRecord] {
        try await database.write { db in
            let due = try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(Self.columns) FROM media
                    WHERE status = 'processing' AND run_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                    ORDER BY run_at LIMIT ?
                    """,
                arguments: [now.sqliteValue, now.sqliteValue, limit]
            ).compactMap(Self.record)
            guard !due.isEmpty else { return [] }
            try db.execute(
                cached: "UPDATE media SET lease_until = ? WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [leaseUntil.sqliteValue, SQLiteIDList.json(due.map(\.id))])
            return due
        }
    }

    func markReady(_ id: MediaID, width: Int, height: Int, blurhash: String, at date: Date) async throws {
        try await execute(
            """
            UPDATE media SET status = 'ready', width = ?, height = ?, blurhash = ?, reason = NULL, lease_until = NULL
            WHERE id = ?
            """, [width, height, blurhash, id.description])
    }

    func markFailed(_ id: MediaID, reason: String, at date: Date) async throws {
        try await execute(
            "UPDATE media SET status = 'failed', reason = ?, lease_until = NULL WHERE id = ?", [reason, id.description])
    }

    func retry(_ id: MediaID, at runAt: Date) async throws {
        try await execute(
            "UPDATE media SET attempts = attempts + 1, run_at = ?, lease_until = NULL WHERE id = ?",
            [runAt.sqliteValue, id.description])
    }

    func updateDetails(_ id: MediaID, description: String?, focus: FocalPoint?) async throws {
        try await execute(
            "UPDATE media SET description = ?, focus_x = ?, focus_y = ? WHERE id = ?",
            [description, focus?.x, focus?.y, id.description])
    }

    func attach(_ ids: [MediaID], to post: PostID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    UPDATE media SET discarded_at = ?
                    WHERE post_id = ? AND discarded_at IS NULL AND id NOT IN (SELECT value FROM json_each(?))
                    """,
                arguments: [date.sqliteValue, post.description, SQLiteIDList.json(ids)])
            for (position, id) in ids.enumerated() {
                try db.execute(
                    cached: """
                        UPDATE media SET post_id = ?, position = ?, attached_at = coalesce(attached_at, ?) WHERE id = ?
                        """,
                    arguments: [post.description, position, date.sqliteValue, id.description])
            }
        }
    }

    func setAvatar(_ id: MediaID?, of subject: AvatarSubject, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    UPDATE media SET discarded_at = ?
                    WHERE avatar_of = ? AND discarded_at IS NULL AND id IS NOT ?
                    """,
                arguments: [date.sqliteValue, subject.key, id?.description])
            if let id {
                try db.execute(
                    cached: "UPDATE media SET attached_at = coalesce(attached_at, ?), avatar_of = ? WHERE id = ?",
                    arguments: [date.sqliteValue, subject.key, id.description])
            }
        }
    }

    func discard(_ ids: [MediaID], at date: Date) async throws {
        guard !ids.isEmpty else { return }
        try await execute(
            """
            UPDATE media SET discarded_at = ?
            WHERE id IN (SELECT value FROM json_each(?)) AND discarded_at IS NULL
            """, [date.sqliteValue, SQLiteIDList.json(ids)])
    }

    func discard(post: PostID, at date: Date) async throws {
        try await execute(
            "UPDATE media SET discarded_at = ? WHERE post_id = ? AND discarded_at IS NULL",
            [date.sqliteValue, post.description])
    }

    func sweepable(staleBefore: Date, limit: Int) async throws -> [MediaRecord] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(Self.columns) FROM media WHERE discarded_at IS NOT NULL
                    UNION ALL
                    SELECT \(Self.columns) FROM media WHERE attached_at IS NULL AND discarded_at IS NULL AND created_at < ?
                    LIMIT ?
                    """,
                arguments: [staleBefore.sqliteValue, limit]
            ).compactMap(Self.record)
        }
    }

    func delete(_ ids: [MediaID]) async throws {
        guard !ids.isEmpty else { return }
        try await execute("DELETE FROM media WHERE id IN (SELECT value FROM json_each(?))", [SQLiteIDList.json(ids)])
    }

    func countUnattached(of owner: UserID, since: Date) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                cached: db,
                sql: """
                    SELECT count(*) FROM media
                    WHERE owner_id = ? AND attached_at IS NULL AND discarded_at IS NULL AND status <> 'failed'
                      AND created_at >= ?
                    """,
                arguments: [owner.description, since.sqliteValue]) ?? 0
        }
    }

    func signingKey(candidate: Data) async throws -> Data {
        try await database.write { db in
            try db.execute(
                cached: "INSERT OR IGNORE INTO server_keys (name, key, created_at) VALUES ('media-urls', ?, ?)",
                arguments: [candidate, Date().sqliteValue])
            return try Data.fetchOne(cached: db, sql: "SELECT key FROM server_keys WHERE name = 'media-urls'")
                ?? candidate
        }
    }

    private func execute(_ sql: String, _ arguments: StatementArguments) async throws {
        try await database.write { db in try db.execute(cached: sql, arguments: arguments) }
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
