import Foundation

/// A stored idempotency record as both adapters read it, and the one rule for what it means.
public struct IdempotencyRow: Sendable {
    /// A claim whose request has not finished after this long is taken to have died with its process. Only a
    /// claim made outside a unit of work can be left so (older Spotters made them all that way): inside one,
    /// a claim commits with its response or not at all.
    public static let abandonedAfter: TimeInterval = 60

    public var fingerprint: String
    public var createdAt: Date
    public var status: Int?
    public var contentType: String?
    public var body: Data?

    public init(fingerprint: String, createdAt: Date, status: Int?, contentType: String?, body: Data?) {
        self.fingerprint = fingerprint
        self.createdAt = createdAt
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// What a new request with `fingerprint` gets from this record, or `nil` when the record is stale
    /// (past retention, or an abandoned claim) and the adapter should replace it with a fresh claim.
    public func claim(fingerprint: String, now: Date, retention: TimeInterval) -> IdempotencyClaim? {
        let age = now.timeIntervalSince(createdAt)
        if age >= retention { return nil }
        guard let status else {
            if age >= Self.abandonedAfter { return nil }
            return self.fingerprint == fingerprint ? .inProgress : .mismatch
        }
        guard self.fingerprint == fingerprint else { return .mismatch }
        return .replay(StoredResponse(status: status, contentType: contentType, body: body ?? Data()))
    }
}
