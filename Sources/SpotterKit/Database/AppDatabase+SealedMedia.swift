import Foundation
import GRDB
import SpotterModels

/// A photo of an encrypted group on its way to this device, or here (MyTube's downloader): what a screen shows
/// in its place (a spinner, the photo, or why it could not come).
public struct MediaDownload: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Asked for (`EncryptedGroups.prefetch`), not started yet.
        case pending
        case downloading
        /// Opened and kept on this device.
        case ready
        /// The last try did not bring it, with why (no network, a blob the server no longer has, one that did
        /// not open). Asking again tries again.
        case failed(String)
    }

    public var blobID: UUID
    public var state: State
    /// The opened bytes kept, once ready.
    public var byteSize: Int
    /// When it was last opened from the server.
    public var lastDownloaded: Date?
}

/// Opened photos of encrypted groups, kept in the client database up to a number of bytes, the least recently
/// shown going first; with each photo's download state. They are the person's and go at sign-out, and a
/// post's go when it is deleted.
extension AppDatabase {
    static func registerSealedMediaMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("sealed media cache") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sealed_media (
                        blob_id TEXT PRIMARY KEY, group_id TEXT NOT NULL, state TEXT NOT NULL, failure TEXT,
                        bytes BLOB, byte_size INTEGER NOT NULL DEFAULT 0, last_downloaded REAL,
                        last_used REAL NOT NULL);
                    CREATE INDEX sealed_media_by_last_used ON sealed_media (last_used);
                    """)
        }
    }

    public func mediaDownload(_ blob: UUID) async throws -> MediaDownload? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT state, failure, byte_size, last_downloaded FROM sealed_media WHERE blob_id = ?",
                arguments: [UUIDText.format(blob)]
            ).map { row in
                let state: MediaDownload.State =
                    switch row[0] as String {
                    case "pending": .pending
                    case "downloading": .downloading
                    case "ready": .ready
                    default: .failed(row[1] ?? "")
                    }
                return MediaDownload(
                    blobID: blob, state: state, byteSize: row[2],
                    lastDownloaded: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    /// The kept bytes of a ready photo (and it counts as just shown); nil when it is not kept.
    func mediaBytes(_ blob: UUID, at now: Date) async throws -> Data? {
        try await writer.write { db in
            let id = UUIDText.format(blob)
            guard
                let bytes = try Data.fetchOne(
                    db, sql: "SELECT bytes FROM sealed_media WHERE blob_id = ? AND state = 'ready'", arguments: [id])
            else { return nil }
            try db.execute(
                sql: "UPDATE sealed_media SET last_used = ? WHERE blob_id = ?",
                arguments: [now.timeIntervalSince1970, id])
            return bytes
        }
    }

    /// A photo's download moved on (pending, downloading or failed); a kept one stays kept.
    func setMediaState(_ blob: UUID, group: GroupID, _ state: MediaDownload.State, at now: Date) async throws {
        let (name, failure): (String, String?) =
            switch state {
            case .pending: ("pending", nil)
            case .downloading: ("downloading", nil)
            case .ready: ("ready", nil)
            case .failed(let reason): ("failed", reason)
            }
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sealed_media (blob_id, group_id, state, failure, last_used) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (blob_id) DO UPDATE SET state = excluded.state, failure = excluded.failure
                    WHERE sealed_media.state <> 'ready'
                    """,
                arguments: [UUIDText.format(blob), group.description, name, failure, now.timeIntervalSince1970])
        }
    }

    /// Keeps an opened photo, then lets the least recently shown others go until the kept bytes fit `limit`.
    func storeMedia(_ blob: UUID, group: GroupID, _ bytes: Data, at now: Date, limit: Int) async throws {
        try await writer.write { db in
            let id = UUIDText.format(blob)
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO sealed_media
                        (blob_id, group_id, state, failure, bytes, byte_size, last_downloaded, last_used)
                    VALUES (?, ?, 'ready', NULL, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, group.description, bytes, bytes.count, now.timeIntervalSince1970, now.timeIntervalSince1970,
                ])
            var kept = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(byte_size), 0) FROM sealed_media") ?? 0
            let oldest = try Row.fetchAll(
                db,
                sql: """
                    SELECT blob_id, byte_size FROM sealed_media WHERE state = 'ready' AND blob_id <> ?
                    ORDER BY last_used
                    """,
                arguments: [id])
            for row in oldest where kept > limit {
                try db.execute(sql: "DELETE FROM sealed_media WHERE blob_id = ?", arguments: [row[0] as String])
                kept -= row[1] as Int
            }
        }
    }

    /// Forgets the kept photos (a deleted post's).
    func forgetMedia(_ blobs: [UUID]) async throws {
        try await writer.write { db in
            for blob in blobs {
                try db.execute(sql: "DELETE FROM sealed_media WHERE blob_id = ?", arguments: [UUIDText.format(blob)])
            }
        }
    }
}
