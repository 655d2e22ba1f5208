import Foundation

/// An RFC 9457 problem detail, the body of every error response (`application/problem+json`).
///
/// See https://www.rfc-editor.org/rfc/rfc9457. `errors` names each offending field for 400 and 422.
public struct Problem: Codable, Sendable, Equatable, Error {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    public var errors: [FieldError]?
    /// The `X-Request-Id` of the request, so a user's report can be matched with the server's log.
    public var requestID: String?
    /// For a 429 whose rule knows it: when the request will be accepted (the `Retry-After`, as a time).
    public var retryAt: Date?

    public init(
        type: String = "about:blank",
        title: String,
        status: Int,
        detail: String? = nil,
        errors: [FieldError]? = nil,
        requestID: String? = nil,
        retryAt: Date? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.requestID = requestID
        self.retryAt = retryAt
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors
        case requestID = "request_id"
        case retryAt = "retry_at"
    }
}

/// One invalid field: its JSON name (a dotted path for nested fields) and what is wrong with it.
public struct FieldError: Codable, Sendable, Equatable {
    public var field: String
    public var detail: String

    public init(field: String, detail: String) {
        self.field = field
        self.detail = detail
    }
}
