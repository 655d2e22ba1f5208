import Foundation
import SpotterModels

/// The durable queue of delivery jobs (pushes and emails), shared by every node: a notification's jobs are
/// scheduled in the same write as the notification (`NotificationStore.insert`), and `DeliveryRunner` claims,
/// attempts, retries and finishes them.
public protocol DeliveryQueue: Sendable {
    /// Takes up to `limit` jobs due at `now` (pending, or running with a lease that ran out: a node died),
    /// leasing each until `leaseUntil`. No two callers, on any node, get the same job.
    func claimDue(now: Date, leaseUntil: Date, limit: Int) async throws -> [DeliveryJob]
    /// Asks for a silent refresh push to `recipient`'s phones at `runAt` (`DeliveryJob.refreshBatchKey`),
    /// joining the one already pending, inside the caller's unit of work.
    func scheduleRefresh(of recipient: UserID, at runAt: Date) async throws
    /// The targets a job already reached in an earlier attempt, so a retry never sends to them twice.
    func deliveredTargets(of job: UUID) async throws -> Set<String>
    func recordAttempt(_ attempt: DeliveryAttempt) async throws
    /// Ends a job: `sent` (true) or given up on (false).
    func finish(_ job: UUID, sent: Bool, at date: Date) async throws
    /// Puts a job back to wait until `runAt`, counting the attempt.
    func retry(_ job: UUID, at runAt: Date, error: String) async throws
    /// Pending and running jobs (for tools and tests).
    func pendingJobs(of recipient: UserID) async throws -> [DeliveryJob]
    func attempts(of job: UUID) async throws -> [DeliveryAttempt]
}
