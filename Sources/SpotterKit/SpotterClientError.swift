import Foundation
import SpotterModels

/// What a `SpotterClient` call throws.
public enum SpotterClientError: Error, Equatable, CustomStringConvertible {
    /// The server refused the request: its RFC 9457 problem, with the fields at fault for 400 and 422.
    case problem(Problem)
    /// No response: the network, a timeout, a server that is down. Safe to queue and try later.
    case transport(String)
    /// The call needs a signed-in session and there is none (or its refresh token was refused).
    case signedOut
    /// A response SpotterKit could not read.
    case unreadableResponse(status: Int, detail: String)

    public var description: String {
        switch self {
        case .problem(let problem): "\(problem.status) \(problem.title)" + (problem.detail.map { ": \($0)" } ?? "")
        case .transport(let detail): "no response from the server: \(detail)"
        case .signedOut: "not signed in"
        case .unreadableResponse(let status, let detail): "unreadable response (\(status)): \(detail)"
        }
    }

    /// The HTTP status, when the server answered.
    public var status: Int? {
        switch self {
        case .problem(let problem): problem.status
        case .unreadableResponse(let status, _): status
        case .transport, .signedOut: nil
        }
    }

    /// Whether trying the same request later might succeed (the outbox keeps such actions).
    public var isTransient: Bool {
        switch self {
        case .transport: true
        case .problem(let problem): problem.status == 429 || problem.status >= 500
        case .signedOut, .unreadableResponse: false
        }
    }
}
