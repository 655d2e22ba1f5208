import Foundation
import GRDB
import SpotterModels

/// The upload queue's tables: posts with photos waiting to reach the server, each photo with its bytes and the
/// step it reached. Every write commits one step's result, so a job resumes where it stopped.
extension AppDatabase {
    /// Stores a job and its photos' bytes with a new idempotency key for the post (committed before this returns).
    func insertUploadJob(_ post: CreatePostRequest, photos: [PhotoToUpload], at now: Date) async throws -> UploadJob {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO upload_jobs (post, idempotency_key, created_at) VALUES (?, ?, ?)",
                arguments: [try Self.uploadJSON(post), SpotterClient.newKey(), now.timeIntervalSince1970])
            let id = db.lastInsertedRowID
            for (position, photo) in photos.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO upload_photos
                            (job_id, position, bytes, content_type, description, focus, stage, presign_key)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, position, photo.data, photo.contentType, photo.description,
                        try photo.focus.map(Self.uploadJSON), UploadStage.presign.rawValue, SpotterClient.newKey(),
                    ])
            }
            return try Self.uploadJobs(db, where: "id = ?", [id])[0]
        }
    }

    /// Jobs still to run (`failed: false`) or refused for good (`failed: true`), oldest first; without bytes.
    func uploadJobs(failed: Bool) async throws -> [UploadJob] {
        try await writer.read { db in try Self.uploadJobs(db, where: "(failure IS NOT NULL) = ?", [failed]) }
    }

    /// A photo's bytes.
    func uploadBytes(job: Int64, position: Int) async throws -> Data {
        try await writer.read { db in
            try Data.fetchOne(
                db, sql: "SELECT bytes FROM upload_photos WHERE job_id = ? AND position = ?",
                arguments: [job, position]) ?? Data()
        }
    }

    /// A photo reached `stage`; `upload` and `presignKey` replace its link and key when given.
    func setUploadStage(
        job: Int64, position: Int, _ stage: UploadStage, upload: MediaUpload? = nil, presignKey: String? = nil
    ) async throws {
        let link = try upload.map(Self.uploadJSON)
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE upload_photos SET stage = ?, upload = CASE WHEN ? THEN NULL ELSE COALESCE(?, upload) END,
                        presign_key = COALESCE(?, presign_key)
                    WHERE job_id = ? AND position = ?
                    """,
                arguments: [stage.rawValue, stage == .presign, link, presignKey, job, position])
        }
    }

    /// A new idempotency key for the job's post: the server refused the post under the old one, which it answers
    /// with that refusal from then on, and the job is sending a different post (new photos).
    func renewUploadKey(_ id: Int64, _ key: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE upload_jobs SET idempotency_key = ? WHERE id = ?", arguments: [key, id])
        }
    }

    /// The job's try did not get through and it waits for the next: counted, with why, and when.
    func scheduleUploadRetry(_ id: Int64, attempts: Int, _ retry: PendingRetry) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE upload_jobs SET attempts = ?, last_error_kind = ?, last_error = ?, next_attempt_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    attempts, retry.reason.rawValue, retry.detail, retry.nextAttempt.timeIntervalSince1970, id,
                ])
        }
    }

    /// Refused for good: the job waits for the person, with the reason, and is not tried again.
    func markUploadFailed(_ id: Int64, _ reason: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE upload_jobs SET failure = ?, last_error_kind = 'refused', last_error = ?,
                        next_attempt_at = NULL
                    WHERE id = ?
                    """, arguments: [reason, reason, id])
        }
    }

    /// The post is made (or the person discarded the job): the job and its bytes go.
    func deleteUploadJob(_ id: Int64) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM upload_jobs WHERE id = ?", arguments: [id]) }
    }

    static func uploadJobs(
        _ db: Database, where condition: String, _ arguments: StatementArguments
    ) throws
        -> [UploadJob]
    {
        let jobs = try Row.fetchAll(
            db,
            sql: """
                SELECT id, post, idempotency_key, attempts, failure, created_at, last_error_kind, last_error,
                    next_attempt_at
                FROM upload_jobs WHERE \(condition) ORDER BY id
                """, arguments: arguments)
        return try jobs.map { row in
            let id: Int64 = row[0]
            var retry: PendingRetry?
            if let kind = PendingRetry.Reason(rawValue: row[6] ?? ""), let detail: String = row[7],
                let next: Double = row[8]
            {
                retry = PendingRetry(reason: kind, detail: detail, nextAttempt: Date(timeIntervalSince1970: next))
            }
            let photos = try Row.fetchAll(
                db,
                sql: """
                    SELECT position, content_type, length(bytes), description, focus, stage, presign_key, upload
                    FROM upload_photos WHERE job_id = ? ORDER BY position
                    """, arguments: [id]
            ).map { photo in
                UploadPhoto(
                    position: photo[0], contentType: photo[1], byteSize: photo[2], description: photo[3],
                    focus: try (photo[4] as String?).map { try decodeUpload(FocalPoint.self, $0) },
                    stage: UploadStage(rawValue: photo[5]) ?? .presign, presignKey: photo[6],
                    upload: try (photo[7] as String?).map { try decodeUpload(MediaUpload.self, $0) })
            }
            return UploadJob(
                id: id, post: try decodeUpload(CreatePostRequest.self, row[1]), idempotencyKey: row[2], photos: photos,
                attempts: row[3], failure: row[4], retry: retry, createdAt: Date(timeIntervalSince1970: row[5]))
        }
    }

    private static func uploadJSON(_ value: some Encodable) throws -> String {
        String(decoding: try SpotterClient.encoder.encode(value), as: UTF8.self)
    }

    private static func decodeUpload<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
        try SpotterClient.decoder.decode(Value.self, from: Data(text.utf8))
    }
}
