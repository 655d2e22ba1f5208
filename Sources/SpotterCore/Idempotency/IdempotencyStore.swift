import Foundation

/// Remembers the first response to each `Idempotency-Key` so a retried request changes nothing.
///
/// Keys are scoped (per user): two users may use the same key. A record older than the retention window
/// counts as absent.
///
/// The claim, the request's own writes and the stored response belong in one unit of work
/// (`SpotterStorage.write`, as `IdempotencyMiddleware` does): then a claim is never seen without its response,
/// a crash leaves nothing behind, and a concurrent duplicate waits for the first request's commit and replays
/// it. A claim made outside a unit is seen in progress until `complete`.
public protocol IdempotencyStore: Sendable {
    /// The key's record as it stands, read without claiming anything: a retry finds its replay here without
    /// waiting for a writer.
    func find(scope: String, key: String) async throws -> IdempotencyRow?
    /// Claims `key` for a request with the given fingerprint (a hash of method, path and body).
    func begin(
        scope: String, key: String, fingerprint: String, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    /// Stores the response of a claimed key.
    func complete(scope: String, key: String, response: StoredResponse) async throws
    /// Deletes records created before `date`; returns how many.
    @discardableResult
    func deleteExpired(before date: Date) async throws -> Int
}

/// What `begin` found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new: run the request, then `complete` (or roll the unit of work back).
    case claimed
    /// The same request finished before: send this again.
    case replay(StoredResponse)
    /// A claim without a response: the same key is being processed outside a unit of work, or a process died
    /// holding a claim it made outside one (an older Spotter's, taken over after `IdempotencyRow.abandonedAfter`).
    case inProgress
    /// The key was used with a different request.
    case mismatch
}

/// A response as it is replayed.
public struct StoredResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String?
    public var body: Data

    public init(status: Int, contentType: String?, body: Data) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
