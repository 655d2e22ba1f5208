import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// The delivery job queue on PostgreSQL, drained by every node at once: claims take rows with
/// `FOR UPDATE SKIP LOCKED`, so two nodes never take the same job, and neither waits for the other.
struct PostgresDeliveryQueue: DeliveryQueue {
    let database: PostgresDatabase
    let logger: Logger

    /// Puts a notification into a job for `channel` (see `ScheduledDelivery`), inside the caller's transaction;
    /// with no notification, only makes sure the batch is pending (a silent refresh).
    static func schedule(
        _ notification: NotificationID?, recipient: UserID, channel: DeliveryChannel, batchKey: String?, runAt: Date,
        on connection: PostgresSession, logger: Logger
    ) async throws {
        var jobID: UUID?
        // Join the pending batch, or open one. A batch a runner claimed meanwhile is no longer pending: the
        // second round opens a new one (the unique index stops two nodes opening the same key at once).
        for _ in 0..<3 where jobID == nil {
            if let batchKey {
                for try await id in try await connection.query(
                    PostgresQuery(
                        DeliverySQL.pendingBatch.postgres,
                        [
                            "recipient": PostgresBind(recipient.rawValue), "channel": PostgresBind(channel.rawValue),
                            "key": PostgresBind(batchKey),
                        ]), logger: logger
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
        guard let notification else { return }
        try await connection.query(
            PostgresQuery(
                DeliverySQL.addItem.postgres,
                [
                    "job": PostgresBind(jobID), "notification": PostgresBind(notification.rawValue),
                    "channel": PostgresBind(channel.rawValue),
                ]), logger: logger)
    }

    func scheduleRefresh(of recipient: UserID, at runAt: Date) async throws {
        try await database.withTransaction(logger: logger) { session in
            try await Self.schedule(
                nil, recipient: recipient, channel: .push, batchKey: DeliveryJob.refreshBatchKey, runAt: runAt,
                on: session, logger: logger)
        }
    }

    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [DeliveryJob] {
        var ids: [UUID] = []
        for try await id in try await database.query(
            PostgresQuery(
                DeliverySQL.claimDue.postgres,
                [
                    "leaseUntil": PostgresBind(leaseUntil), "now": PostgresBind(now), "limit": PostgresBind(limit),
                ]), logger: logger
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
            PostgresQuery(DeliverySQL.job.postgres, ["id": PostgresBind(id)]), logger: logger
        ).decode((UUID, UUID, String, String?, Date, Int32).self) {
            job = DeliveryJob(
                id: id, recipientID: UserID(rawValue: recipient), channel: DeliveryChannel(rawValue: channel) ?? .push,
                batchKey: batchKey, notificationIDs: [], runAt: runAt, attempts: Int(attempts))
        }
        guard var job else { return nil }
        for try await item in try await database.query(
            PostgresQuery(DeliverySQL.items.postgres, ["job": PostgresBind(id)]), logger: logger
        ).decode(UUID.self) {
            job.notificationIDs.append(NotificationID(rawValue: item))
        }
        return job
    }

    func deliveredTargets(of job: UUID) async throws -> Set<String> {
        var targets = Set<String>()
        for try await target in try await database.query(
            PostgresQuery(DeliverySQL.deliveredTargets.postgres, ["job": PostgresBind(job)]), logger: logger
        ).decode(String.self) {
            targets.insert(target)
        }
        return targets
    }

    func recordAttempt(_ attempt: DeliveryAttempt) async throws {
        try await database.query(
            PostgresQuery(
                DeliverySQL.recordAttempt.postgres,
                [
                    "job": PostgresBind(attempt.jobID), "target": PostgresBind(attempt.target),
                    "status": PostgresBind(attempt.status.rawValue), "detail": PostgresBind(attempt.detail),
                    "at": PostgresBind(attempt.at),
                ]), logger: logger)
    }

    func finish(_ job: UUID, sent: Bool, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                DeliverySQL.finish.postgres,
                ["state": PostgresBind(sent ? "sent" : "failed"), "at": PostgresBind(date), "job": PostgresBind(job)]),
            logger: logger)
    }

    func retry(_ job: UUID, at runAt: Date, error: String) async throws {
        try await database.query(
            PostgresQuery(
                DeliverySQL.retry.postgres,
                ["runAt": PostgresBind(runAt), "error": PostgresBind(error), "job": PostgresBind(job)]),
            logger: logger)
    }

    func pendingJobs(of recipient: UserID) async throws -> [DeliveryJob] {
        var ids: [UUID] = []
        for try await id in try await database.query(
            PostgresQuery(DeliverySQL.pendingJobs.postgres, ["recipient": PostgresBind(recipient.rawValue)]),
            logger: logger
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
            PostgresQuery(DeliverySQL.attempts.postgres, ["job": PostgresBind(job)]), logger: logger
        ).decode((UUID, String, String, String, Date).self) {
            attempts.append(
                DeliveryAttempt(
                    jobID: jobID, target: target, status: DeliveryAttempt.Status(rawValue: status) ?? .failed,
                    detail: detail, at: at))
        }
        return attempts
    }
}
