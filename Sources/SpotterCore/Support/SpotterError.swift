import Foundation
import SpotterModels

/// A failure the domain reports to its caller. The HTTP layer turns each case into a problem+json response;
/// nothing here knows about HTTP beyond what the cases mean.
public enum SpotterError: Error, Sendable, Equatable {
    /// The input is well-formed but breaks a rule; each field is named (422).
    case validation([FieldError])
    /// The input could not be read at all (400): malformed JSON, a wrong type, a missing field.
    case malformed(detail: String, field: String?)
    /// No valid credentials (401). `detail` is safe to show.
    case unauthorized(String)
    /// Authenticated, but not allowed (403).
    case forbidden(String)
    /// The thing does not exist, or the caller may not know that it does (404).
    case notFound(String)
    /// A uniqueness rule would break (409): `field` names what is taken.
    case conflict(field: String, detail: String)
    /// Too many attempts; try again after this many seconds (429), at `retryAt` when the rule knows the moment
    /// (the new-account post limit does: the oldest post in the hour's window, plus an hour).
    case rateLimited(retryAfter: Int, detail: String, retryAt: Date? = nil)
    /// A dependency outside Spotter is unreachable (503), for example Apple's key set.
    case unavailable(String)

    /// Shorthand for one invalid field.
    public static func invalid(_ field: String, _ detail: String) -> SpotterError {
        .validation([FieldError(field: field, detail: detail)])
    }
}

/// A failure an adapter reports that the domain must tell apart from a crash.
public enum StorageError: Error, Sendable, Equatable {
    /// A unique constraint refused the write; `field` is the wire name of the column that clashed.
    case duplicate(field: String)
}
