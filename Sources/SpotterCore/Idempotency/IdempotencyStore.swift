import Foundation

/// Remembers the first response to each `Idempotency-Key` so a retried request changes nothing.
///
/// Keys are scoped (per user): two users may use the same key. A record older than the retention window
/// counts as absent.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` for a request with the given fingerprint (a hash of method, path and body).
    func begin(
        scope: String, key: String, fingerprint: String, now: Date, retention: TimeInterval
    ) async throws
        -> IdempotencyClaim
    /// Stores the response of a claimed key.
    func complete(scope: String, key: String, response: StoredResponse) async throws
    /// Releases a claim whose request failed without a response worth replaying, so the client can retry.
    func release(scope: String, key: String) async throws
    /// Deletes records created before `date`; returns how many.
    @discardableResult
    func deleteExpired(before date: Date) async throws -> Int
}

/// What `begin` found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new: run the request, then `complete` or `release`.
    case claimed
    /// The same request finished before: send this again.
    case replay(StoredResponse)
    /// The same key is being processed by another request right now.
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
