import Foundation
import SpotterModels

/// An action in the queue: its order, the idempotency key every try of it carries, and how it is going.
public struct QueuedAction: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var action: Action
    public var idempotencyKey: String
    /// Tries in a row that did not land; the wait before the next one grows with them.
    public var attempts: Int
    /// Set once the server refused the action for good (a 4xx other than 408, 429 and 409 "still being
    /// processed"), with the server's reason: it waits for the user to retry or discard it, and is never dropped
    /// silently.
    public var failure: String?
    /// Why the last try did not land and when the next is due, while the action waits; nil before its first try.
    public var retry: PendingRetry?
    public var createdAt: Date

    public init(
        id: Int64, action: Action, idempotencyKey: String, attempts: Int = 0, failure: String? = nil,
        retry: PendingRetry? = nil, createdAt: Date
    ) {
        self.id = id
        self.action = action
        self.idempotencyKey = idempotencyKey
        self.attempts = attempts
        self.failure = failure
        self.retry = retry
        self.createdAt = createdAt
    }
}

/// Why a waiting action's last try did not land, and when the next one is due: what a screen (or `spotter
/// outbox`) tells the user instead of a bare "waiting".
public struct PendingRetry: Sendable, Equatable {
    /// What stopped the last try. None of these ever fails an action: it waits, however long it takes.
    public enum Reason: String, Sendable, Equatable {
        /// No response: no network, a timeout, a name that did not resolve, a server that is down.
        case network
        /// The server answered but could not take it now: a 5xx, or 408.
        case server
        /// The server refused it for now (429), a rate limit such as new accounts' posts an hour; its time is
        /// the server's `Retry-After`, which even a forced drain waits for.
        case refusedForNow = "refused-for-now"
        /// The server is still processing an earlier try with the same idempotency key (409).
        case stillProcessing = "still-processing"
    }

    public var reason: Reason
    /// What the network or the server said.
    public var detail: String
    /// When a drain next sends the action.
    public var nextAttempt: Date

    public init(reason: Reason, detail: String, nextAttempt: Date) {
        self.reason = reason
        self.detail = detail
        self.nextAttempt = nextAttempt
    }
}

/// What a drain did with one action. An action that did not land for want of a network or a working server
/// has no outcome: it waits in `pending`, its `retry` saying why and until when.
public enum ActionOutcome: Sendable, Equatable {
    /// The server took it (or had taken it already: the idempotency key makes a replay land once).
    case landed(QueuedAction)
    /// The server refused it for good: revert what was shown optimistically, and tell the user.
    case refused(QueuedAction, Problem)
}
