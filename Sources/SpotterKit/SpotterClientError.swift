import Foundation
import SpotterModels

/// What a `SpotterClient` call throws.
public enum SpotterClientError: Error, Equatable, CustomStringConvertible {
    /// The server refused the request: its RFC 9457 problem, with the fields at fault for 400 and 422.
    case problem(Problem)
    /// The server refused the request for now (a 429, a 503) and said when to come back (`Retry-After`), later
    /// than the client's `RetryPolicy` waits: the outbox keeps the action until then.
    case retryLater(Problem, after: Duration)
    /// No response: the network, a timeout, a server that is down. Safe to queue and try later.
    case transport(String)
    /// The call needs a signed-in session and there is none (or its refresh token was refused).
    case signedOut
    /// A response SpotterKit could not read.
    case unreadableResponse(status: Int, detail: String)

    public var description: String {
        switch self {
        case .problem(let problem): "\(problem.status) \(problem.title)" + (problem.detail.map { ": \($0)" } ?? "")
        case .retryLater(let problem, let after):
            SpotterClientError.problem(problem).description + " (retry after \(after.components.seconds) s)"
        case .transport(let detail):
            // `unreachable` already says it in words ("cannot reach http://…: connection refused").
            detail.hasPrefix("cannot reach ") ? detail : "no response from the server: \(detail)"
        case .signedOut: "not signed in"
        case .unreadableResponse(let status, let detail): "unreadable response (\(status)): \(detail)"
        }
    }

    /// The HTTP status, when the server answered.
    public var status: Int? {
        switch self {
        case .problem(let problem), .retryLater(let problem, _): problem.status
        case .unreadableResponse(let status, _): status
        case .transport, .signedOut: nil
        }
    }

    /// The server's problem, when it answered with one.
    public var problem: Problem? {
        switch self {
        case .problem(let problem), .retryLater(let problem, _): problem
        case .transport, .signedOut, .unreadableResponse: nil
        }
    }

    /// Whether trying the same request later might succeed (the outbox keeps such actions): no response, a
    /// server error, 408 Request Timeout, 429 Too Many Requests, and a 409 for an `Idempotency-Key` still being
    /// processed (the first try is under way; a later one gets its answer). Any other 4xx is the server's last
    /// word.
    public var isTransient: Bool {
        switch self {
        case .transport, .retryLater: true
        case .problem(let problem):
            [408, 429].contains(problem.status) || problem.status >= 500 || problem.isStillProcessing
        case .signedOut, .unreadableResponse: false
        }
    }
}

extension Problem {
    /// Whether this is the server's 409 for a request whose `Idempotency-Key` an earlier try still holds: the
    /// conflict names that header as the field at fault (`IdempotencyMiddleware`).
    var isStillProcessing: Bool {
        status == 409 && errors?.contains { $0.field == "Idempotency-Key" } == true
    }

    /// The problem in a sentence or two, for a user: its detail (else its title) and each field at fault.
    ///
    ///     Some fields are not valid. text: is required for a note without photos.
    public var explanation: String {
        let summary = [detail ?? "", title].first { !$0.isEmpty } ?? "HTTP \(status)"
        return ([summary] + (errors ?? []).map { "\($0.field): \($0.detail)." }).joined(separator: " ")
    }
}
