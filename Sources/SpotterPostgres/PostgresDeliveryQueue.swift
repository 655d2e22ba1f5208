import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

/// The delivery job queue on PostgreSQL, drained by every node at once: claims take rows with
/// `FOR UPDATE SKIP LOCKED`, so two nodes never take the same job, and neither waits for the other.
struct PostgresDeliveryQueue: DeliveryQueue {
    let database: PostgresDatabase
    let logger: Logger

    /// Puts a notification into a job for `channel` (see `ScheduledDelivery`), inside the caller's transaction.
    static func schedule(
        _ notification: NotificationID, recipient: UserID, channel: DeliveryChannel, batchKey: String?, runAt: Date,
        on connection: PostgresSession, logger: Logger
    ) async throws {
        var jobID: UUID?
        // Join the pending batch, or open one. A batch a runner claimed meanwhile is no longer pending: the
        // second round opens a new one (the unique index stops two nodes opening the same key at once).
        for _ in 0..<3 where jobID == nil {
            if let batchKey {
                for try await id in try await connection.query(
                    """
                    SELECT id FROM delivery_jobs WHERE recipient_id = \(recipient.rawValue)
                    AND channel = \(channel.rawValue) AND batch_key = \(batchKey) AND state = 'pending'
                    FOR UPDATE
                    """, logger: logger
                ).decode(UUID.self) {
                    jobID = id
                }
                if jobID != nil { break }
            }
            let id = UUIDv7.make(at: runAt)
            for try await inserted in try await connection.query(
                """
                INSERT INTO delivery_jobs (id, recipient_id, channel, batch_key, state, run_at, created_at)
                VALUES (\(id), \(recipient.rawValue), \(channel.rawValue), \(batchKey), 'pending', \(runAt), now())
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: logger
            ).decode(UUID.self) {
                jobID = inserted
            }
        }
        guard let jobID else { throw StorageError.duplicate(field: "batch_key") }
        try await connection.query(
            """
            INSERT INTO delivery_items (job_id, notification_id, channel)
            VALUES (\(jobID), \(notification.rawValue), \(channel.rawValue)) ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [DeliveryJob] {
        var ids: [UUID] = []
        for try await id in try await database.query(
            """
            UPDATE delivery_jobs SET state = 'running', leased_until = \(leaseUntil)
            WHERE id IN (
                SELECT id FROM delivery_jobs
                WHERE (state IN ('pending', 'retrying') AND run_at <= \(now))
                   OR (state = 'running' AND leased_until <= \(now))
                ORDER BY run_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING id
            """, logger: logger
        ).decode(UUID.self) {
            ids.append(id)
        }
        var jobs: [DeliveryJob] = []
        for id in ids { if let job = try await job(id) { jobs.append(job) } }
        return jobs.sorted { $0.runAt < $1.runAt }
    }

    func job(_ id: UUID) async throws -> DeliveryJob? {
        var job: DeliveryJob?
        for try await (id, recipient, channel, batchKey, runAt, attempts) in try await database.query(
            "SELECT id, recipient_id, channel, batch_key, run_at, attempts FROM delivery_jobs WHERE id = \(id)",
            logger: logger
        ).decode((UUID, UUID, String, String?, Date, Int32).self) {
            job = DeliveryJob(
                id: id, recipientID: UserID(rawValue: recipient), channel: DeliveryChannel(rawValue: channel) ?? .push,
                batchKey: batchKey, notificationIDs: [], runAt: runAt, attempts: Int(attempts))
        }
        guard var job else { return nil }
        for try await item in try await database.query(
            "SELECT notification_id FROM delivery_items WHERE job_id = \(id) ORDER BY notification_id", logger: logger
        ).decode(UUID.self) {
            job.notificationIDs.append(NotificationID(rawValue: item))
        }
        return job
    }

    func deliveredTargets(of job: UUID) async throws -> Set<String> {
        var targets = Set<String>()
        for try await target in try await database.query(
            "SELECT target FROM delivery_attempts WHERE job_id = \(job) AND status = 'delivered'", logger: logger
        ).decode(String.self) {
            targets.insert(target)
        }
        return targets
    }

    func recordAttempt(_ attempt: DeliveryAttempt) async throws {
        try await database.query(
            """
            INSERT INTO delivery_attempts (job_id, target, status, detail, at)
            VALUES (\(attempt.jobID), \(attempt.target), \(attempt.status.rawValue), \(attempt.detail), \(attempt.at))
            """, logger: logger)
    }

    func finish(_ job: UUID, sent: Bool, at date: Date) async throws {
        try await database.query(
            """
            UPDATE delivery_jobs SET state = \(sent ? "sent" : "failed"), finished_at = \(date),
                attempts = attempts + 1, leased_until = NULL
            WHERE id = \(job)
            """, logger: logger)
    }

    func retry(_ job: UUID, at runAt: Date, error: String) async throws {
        try await database.query(
            """
            UPDATE delivery_jobs SET state = 'retrying', run_at = \(runAt), attempts = attempts + 1,
                last_error = \(error), leased_until = NULL
            WHERE id = \(job)
            """, logger: logger)
    }

    func pendingJobs(of recipient: UserID) async throws -> [DeliveryJob] {
        var ids: [UUID] = []
        for try await id in try await database.query(
            """
            SELECT id FROM delivery_jobs WHERE recipient_id = \(recipient.rawValue)
            AND state IN ('pending', 'retrying', 'running') ORDER BY run_at, id
            """, logger: logger
        ).decode(UUID.self) {
            ids.append(id)
        }
        var jobs: [DeliveryJob] = []
        for id in ids { if let job = try await job(id) { jobs.append(job) } }
        return jobs
    }

    func attempts(of job: UUID) async throws -> [DeliveryAttempt] {
        var attempts: [DeliveryAttempt] = []
        for try await (jobID, target, status, detail, at) in try await database.query(
            "SELECT job_id, target, status, detail, at FROM delivery_attempts WHERE job_id = \(job) ORDER BY id",
            logger: logger
        ).decode((UUID, String, String, String, Date).self) {
            attempts.append(
                DeliveryAttempt(
                    jobID: jobID, target: target, status: DeliveryAttempt.Status(rawValue: status) ?? .failed,
                    detail: detail, at: at))
        }
        return attempts
    }
}
