import Foundation
import GRDB
import SpotterCore
import SpotterModels

/// The delivery job queue on SQLite. One writer at a time makes each read-then-write below atomic, so a job
/// is claimed once and a batch is joined or created, never both.
struct SQLiteDeliveryQueue: DeliveryQueue {
    let database: SQLiteDatabase

    /// Puts a notification into a job for `channel` (see `ScheduledDelivery`), inside the caller's write.
    static func schedule(
        _ notification: NotificationID, recipient: UserID, channel: DeliveryChannel, batchKey: String?, runAt: Date,
        _ db: Database
    ) throws {
        var jobID: String?
        if let batchKey {
            jobID = try String.fetchOne(
                cached: db,
                sql: """
                    SELECT id FROM delivery_jobs WHERE recipient_id = ? AND channel = ? AND batch_key = ?
                    AND state = 'pending'
                    """, arguments: [recipient.description, channel.rawValue, batchKey])
        }
        if jobID == nil {
            let id = UUIDv7.make(at: runAt).uuidString.lowercased()
            try db.execute(
                cached: """
                    INSERT INTO delivery_jobs (id, recipient_id, channel, batch_key, state, run_at, created_at)
                    VALUES (?, ?, ?, ?, 'pending', ?, ?)
                    """,
                arguments: [
                    id, recipient.description, channel.rawValue, batchKey, runAt.sqliteValue, Date().sqliteValue,
                ])
            jobID = id
        }
        try db.execute(
            cached:
                "INSERT INTO delivery_items (job_id, notification_id, channel) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            arguments: [jobID, notification.description, channel.rawValue])
    }

    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [DeliveryJob] {
        try await database.write { db in
            let rows = try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT id FROM delivery_jobs
                    WHERE (state IN ('pending', 'retrying') AND run_at <= :now)
                       OR (state = 'running' AND leased_until <= :now)
                    ORDER BY run_at LIMIT :limit
                    """, arguments: ["now": now.sqliteValue, "limit": limit])
            let ids: [String] = rows.map { $0[0] }
            var jobs: [DeliveryJob] = []
            for id in ids {
                try db.execute(
                    cached: "UPDATE delivery_jobs SET state = 'running', leased_until = ? WHERE id = ?",
                    arguments: [leaseUntil.sqliteValue, id])
                if let job = try Self.job(id, db) { jobs.append(job) }
            }
            return jobs
        }
    }

    static func job(_ id: String, _ db: Database) throws -> DeliveryJob? {
        guard
            let row = try Row.fetchOne(
                cached: db,
                sql: "SELECT id, recipient_id, channel, batch_key, run_at, attempts FROM delivery_jobs WHERE id = ?",
                arguments: [id])
        else { return nil }
        let items = try String.fetchAll(
            cached: db, sql: "SELECT notification_id FROM delivery_items WHERE job_id = ? ORDER BY notification_id",
            arguments: [id])
        return DeliveryJob(
            id: UUID(uuidString: row[0])!, recipientID: UserID(row[1] as String)!,
            channel: DeliveryChannel(rawValue: row[2]) ?? .push, batchKey: row[3],
            notificationIDs: items.compactMap(NotificationID.init), runAt: Date(sqliteValue: row[4]), attempts: row[5])
    }

    func deliveredTargets(of job: UUID) async throws -> Set<String> {
        try await database.read { db in
            Set(
                try String.fetchAll(
                    cached: db, sql: "SELECT target FROM delivery_attempts WHERE job_id = ? AND status = 'delivered'",
                    arguments: [job.uuidString.lowercased()]))
        }
    }

    func recordAttempt(_ attempt: DeliveryAttempt) async throws {
        try await database.write { db in
            try db.execute(
                cached: "INSERT INTO delivery_attempts (job_id, target, status, detail, at) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    attempt.jobID.uuidString.lowercased(), attempt.target, attempt.status.rawValue, attempt.detail,
                    attempt.at.sqliteValue,
                ])
        }
    }

    func finish(_ job: UUID, sent: Bool, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    UPDATE delivery_jobs SET state = ?, finished_at = ?, attempts = attempts + 1, leased_until = NULL
                    WHERE id = ?
                    """, arguments: [sent ? "sent" : "failed", date.sqliteValue, job.uuidString.lowercased()])
        }
    }

    func retry(_ job: UUID, at runAt: Date, error: String) async throws {
        try await database.write { db in
            // 'retrying', not 'pending': a new batch of the same key may already be pending beside it.
            try db.execute(
                cached: """
                    UPDATE delivery_jobs SET state = 'retrying', run_at = ?, attempts = attempts + 1,
                        last_error = ?, leased_until = NULL
                    WHERE id = ?
                    """, arguments: [runAt.sqliteValue, error, job.uuidString.lowercased()])
        }
    }

    static func sentCount(
        to recipient: UserID, channel: DeliveryChannel, since date: Date, _ db: Database
    ) throws
        -> Int
    {
        try Int.fetchOne(
            cached: db,
            sql: """
                SELECT COUNT(*) FROM delivery_jobs WHERE recipient_id = ? AND channel = ? AND state = 'sent'
                AND finished_at >= ?
                """, arguments: [recipient.description, channel.rawValue, date.sqliteValue]) ?? 0
    }

    func pendingJobs(of recipient: UserID) async throws -> [DeliveryJob] {
        try await database.read { db in
            let ids = try String.fetchAll(
                cached: db,
                sql: """
                    SELECT id FROM delivery_jobs WHERE recipient_id = ?
                    AND state IN ('pending', 'retrying', 'running') ORDER BY run_at, id
                    """, arguments: [recipient.description])
            return try ids.compactMap { try Self.job($0, db) }
        }
    }

    func attempts(of job: UUID) async throws -> [DeliveryAttempt] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: "SELECT job_id, target, status, detail, at FROM delivery_attempts WHERE job_id = ? ORDER BY id",
                arguments: [job.uuidString.lowercased()]
            ).map {
                DeliveryAttempt(
                    jobID: UUID(uuidString: $0[0])!, target: $0[1],
                    status: DeliveryAttempt.Status(rawValue: $0[2]) ?? .failed, detail: $0[3],
                    at: Date(sqliteValue: $0[4]))
            }
        }
    }
}
