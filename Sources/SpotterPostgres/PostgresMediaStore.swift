import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import PostgresNIO
import SpotterCore
import SpotterModels

struct PostgresMediaStore: MediaStore {
    let database: PostgresDatabase
    let logger: Logger

    static let columns = """
        id, owner_id, purpose, status, content_type, byte_size, reason, width, height, blurhash, description,
        focus_x, focus_y, post_id, position, attached_at, discarded_at, created_at, attempts, avatar_of
        """

    func insert(_ media: MediaRecord) async throws {
        try await database.query(
            """
            INSERT INTO media (id, owner_id, purpose, status, content_type, byte_size, description, focus_x, focus_y,
                               created_at, run_at)
            VALUES (\(media.id.rawValue), \(media.ownerID.rawValue), \(media.purpose.rawValue),
                    \(media.status.rawValue), \(media.contentType), \(media.byteSize), \(media.description),
                    \(media.focus?.x), \(media.focus?.y), \(media.createdAt), \(media.createdAt))
            """, logger: logger)
    }

    func find(_ id: MediaID) async throws -> MediaRecord? {
        try await records("SELECT \(unescaped: Self.columns) FROM media WHERE id = \(id.rawValue)").first
    }

    func find(ids: [MediaID]) async throws -> [MediaRecord] {
        guard !ids.isEmpty else { return [] }
        return try await records("SELECT \(unescaped: Self.columns) FROM media WHERE id = ANY(\(ids.map(\.rawValue)))")
    }

    func startProcessing(_ id: MediaID, at date: Date) async throws -> Bool {
        let rows = try await database.query(
            """
            UPDATE media SET status = 'processing', run_at = \(date)
            WHERE id = \(id.rawValue) AND status = 'pending' RETURNING id
            """, logger: logger)
        var changed = false
        for try await _ in rows { changed = true }
        return changed
    }

    /// `SKIP LOCKED`: nodes claiming at once each take different rows, none waits for another.
    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [MediaRecord] {
        var query = PostgresQuery(
            unsafeSQL: """
                UPDATE media SET lease_until = $1
                WHERE id IN (
                    SELECT id FROM media
                    WHERE status = 'processing' AND run_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
                    ORDER BY run_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                RETURNING \(Self.columns)
                """)
        query.binds.append(leaseUntil)
        query.binds.append(now)
        query.binds.append(limit)
        return try await records(query)
    }

    func markReady(_ id: MediaID, width: Int, height: Int, blurhash: String, at date: Date) async throws {
        try await database.query(
            """
            UPDATE media SET status = 'ready', width = \(width), height = \(height), blurhash = \(blurhash),
                reason = NULL, lease_until = NULL
            WHERE id = \(id.rawValue)
            """, logger: logger)
    }

    func markFailed(_ id: MediaID, reason: String, at date: Date) async throws {
        try await database.query(
            "UPDATE media SET status = 'failed', reason = \(reason), lease_until = NULL WHERE id = \(id.rawValue)",
            logger: logger)
    }

    func retry(_ id: MediaID, at runAt: Date) async throws {
        try await database.query(
            """
            UPDATE media SET attempts = attempts + 1, run_at = \(runAt), lease_until = NULL WHERE id = \(id.rawValue)
            """, logger: logger)
    }

    func updateDetails(_ id: MediaID, description: String?, focus: FocalPoint?) async throws {
        try await database.query(
            """
            UPDATE media SET description = \(description), focus_x = \(focus?.x), focus_y = \(focus?.y)
            WHERE id = \(id.rawValue)
            """, logger: logger)
    }

    func attach(_ ids: [MediaID], to post: PostID, at date: Date) async throws {
        let keep = ids.map(\.rawValue)
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                UPDATE media SET discarded_at = \(date)
                WHERE post_id = \(post.rawValue) AND discarded_at IS NULL AND NOT (id = ANY(\(keep)))
                """, logger: logger)
            for (position, id) in ids.enumerated() {
                try await connection.query(
                    """
                    UPDATE media SET post_id = \(post.rawValue), position = \(position),
                        attached_at = coalesce(attached_at, \(date))
                    WHERE id = \(id.rawValue)
                    """, logger: logger)
            }
        }
    }

    func setAvatar(_ id: MediaID?, of subject: AvatarSubject, at date: Date) async throws {
        try await database.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                UPDATE media SET discarded_at = \(date)
                WHERE avatar_of = \(subject.key) AND discarded_at IS NULL AND id IS DISTINCT FROM \(id?.rawValue)
                """, logger: logger)
            if let id {
                try await connection.query(
                    """
                    UPDATE media SET attached_at = coalesce(attached_at, \(date)), avatar_of = \(subject.key)
                    WHERE id = \(id.rawValue)
                    """, logger: logger)
            }
        }
    }

    func discard(_ ids: [MediaID], at date: Date) async throws {
        guard !ids.isEmpty else { return }
        try await database.query(
            """
            UPDATE media SET discarded_at = \(date) WHERE id = ANY(\(ids.map(\.rawValue))) AND discarded_at IS NULL
            """, logger: logger)
    }

    func discard(post: PostID, at date: Date) async throws {
        try await database.query(
            "UPDATE media SET discarded_at = \(date) WHERE post_id = \(post.rawValue) AND discarded_at IS NULL",
            logger: logger)
    }

    func sweepable(staleBefore: Date, limit: Int) async throws -> [MediaRecord] {
        var query = PostgresQuery(
            unsafeSQL: """
                (SELECT \(Self.columns) FROM media WHERE discarded_at IS NOT NULL)
                UNION ALL
                (SELECT \(Self.columns) FROM media
                 WHERE attached_at IS NULL AND discarded_at IS NULL AND created_at < $1)
                LIMIT $2
                """)
        query.binds.append(staleBefore)
        query.binds.append(limit)
        return try await records(query)
    }

    func delete(_ ids: [MediaID]) async throws {
        guard !ids.isEmpty else { return }
        try await database.query("DELETE FROM media WHERE id = ANY(\(ids.map(\.rawValue)))", logger: logger)
    }

    func countUnattached(of owner: UserID, since: Date) async throws -> Int {
        let rows = try await database.query(
            """
            SELECT count(*) FROM media
            WHERE owner_id = \(owner.rawValue) AND attached_at IS NULL AND discarded_at IS NULL
              AND status <> 'failed' AND created_at >= \(since)
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    func signingKey(candidate: Data) async throws -> Data {
        let bytes = ByteBuffer(bytes: candidate)  // bytea; a [UInt8] would bind as "char"[]
        try await database.query(
            """
            INSERT INTO server_keys (name, key, created_at) VALUES ('media-urls', \(bytes), \(Date()))
            ON CONFLICT (name) DO NOTHING
            """, logger: logger)
        let rows = try await database.query("SELECT key FROM server_keys WHERE name = 'media-urls'", logger: logger)
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
