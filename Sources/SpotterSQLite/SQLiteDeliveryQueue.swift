import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// The delivery job queue on SQLite. One writer at a time makes each read-then-write below atomic, so a job
/// is claimed once and a batch is joined or created, never both.
struct SQLiteDeliveryQueue: DeliveryQueue {
    let database: SQLiteDatabase

    /// Puts a notification into a job for `channel` (see `ScheduledDelivery`), inside the caller's write; with
    /// no notification, only makes sure the batch is pending (a silent refresh).
    static func schedule(
        _ notification: NotificationID?, recipient: UserID, channel: DeliveryChannel, batchKey: String?, runAt: Date,
        _ db: Database
    ) throws {
        var jobID: String?
        if let batchKey {
            jobID = try String.fetchOne(
                cached: db,
                sql: DeliverySQL.pendingBatch.sqlite,
                arguments: ["recipient": recipient.description, "channel": channel.rawValue, "key": batchKey])
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
        guard let notification else { return }
        try db.execute(
            cached: DeliverySQL.addItem.sqlite,
            arguments: ["job": jobID, "notification": notification.description, "channel": channel.rawValue])
    }

    func scheduleRefresh(of recipient: UserID, at runAt: Date) async throws {
        try await database.write { db in
            try Self.schedule(
                nil, recipient: recipient, channel: .push, batchKey: DeliveryJob.refreshBatchKey, runAt: runAt, db)
        }
    }

    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [DeliveryJob] {
        try await database.write { db in
            let rows = try Row.fetchAll(
                cached: db,
                sql: DeliverySQL.dueJobs.sqlite, arguments: ["now": now.sqliteValue, "limit": limit])
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
                sql: DeliverySQL.job.sqlite, arguments: ["id": id])
        else { return nil }
        let items = try String.fetchAll(
            cached: db, sql: DeliverySQL.items.sqlite, arguments: ["job": id])
        return DeliveryJob(
            id: UUID(uuidString: row[0])!, recipientID: UserID(row[1] as String)!,
            channel: DeliveryChannel(rawValue: row[2]) ?? .push, batchKey: row[3],
            notificationIDs: items.compactMap(NotificationID.init), runAt: Date(sqliteValue: row[4]), attempts: row[5])
    }

    func deliveredTargets(of job: UUID) async throws -> Set<String> {
        try await database.read { db in
            Set(
                try String.fetchAll(
                    cached: db, sql: DeliverySQL.deliveredTargets.sqlite,
                    arguments: ["job": job.uuidString.lowercased()]))
        }
    }

    func recordAttempt(_ attempt: DeliveryAttempt) async throws {
        try await database.write { db in
            try db.execute(
                cached: DeliverySQL.recordAttempt.sqlite,
                arguments: [
                    "job": attempt.jobID.uuidString.lowercased(), "target": attempt.target,
                    "status": attempt.status.rawValue, "detail": attempt.detail, "at": attempt.at.sqliteValue,
                ])
        }
    }

    func finish(_ job: UUID, sent: Bool, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: DeliverySQL.finish.sqlite,
                arguments: [
                    "state": sent ? "sent" : "failed", "at": date.sqliteValue, "job": job.uuidString.lowercased(),
                ])
        }
    }

    func retry(_ job: UUID, at runAt: Date, error: String) async throws {
        try await database.write { db in
            try db.execute(
                cached: DeliverySQL.retry.sqlite,
                arguments: ["runAt": runAt.sqliteValue, "error": error, "job": job.uuidString.lowercased()])
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
                sql: DeliverySQL.pendingJobs.sqlite, arguments: ["recipient": recipient.description])
            return try ids.compactMap { try Self.job($0, db) }
        }
    }

    func attempts(of job: UUID) async throws -> [DeliveryAttempt] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: DeliverySQL.attempts.sqlite, arguments: ["job": job.uuidString.lowercased()]
            ).map {
                DeliveryAttempt(
                    jobID: UUID(uuidString: $0[0])!, target: $0[1],
                    status: DeliveryAttempt.Status(rawValue: $0[2]) ?? .failed, detail: $0[3],
                    at: Date(sqliteValue: $0[4]))
            }
        }
    }
}
