import Foundation

/// Remembers the first response to each `Idempotency-Key` so a retried request changes nothing.
///
/// Keys are scoped (per user): two users may use the same key. A record older than the retention window
/// counts as absent.
///
/// The request's own writes and its stored response belong in one unit of work (`SpotterStorage.write`, as
/// `IdempotencyMiddleware` does): then a crash leaves nothing behind, and a concurrent duplicate waits for the
/// first request's commit (SQLite: its writer; PostgreSQL: the key's unique index) and replays it.
public protocol IdempotencyStore: Sendable {
    /// The key's record as it stands, read without claiming anything: a retry finds its replay here without
    /// waiting for a writer.
    func find(scope: String, key: String) async throws -> IdempotencyRow?
    /// Stores `response` as the answer to `key` for a request with `fingerprint` (a hash of method, path and
    /// body) and returns `.claimed`; or, when the key has a live record already, stores nothing and returns
    /// what that record means for this request. One statement in the common case (a new key): the claim and
    /// the answer are one row, written last in the request's unit.
    func record(
        scope: String, key: String, fingerprint: String, response: StoredResponse, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    /// Deletes records created before `date`; returns how many.
    @discardableResult
    func deleteExpired(before date: Date) async throws -> Int
}

/// What `record` found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key was new, and the answer is stored with it.
    case claimed
    /// The same request finished before: send this again.
    case replay(StoredResponse)
    /// A claim without a response, as Spotters before the one write path made outside a unit of work: the
    /// same key is being processed by such a node, or one died holding it (taken over after
    /// `IdempotencyRow.abandonedAfter`). Spotter no longer writes such a record.
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
