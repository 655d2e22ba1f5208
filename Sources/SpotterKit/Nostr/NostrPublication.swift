import Foundation
import SpotterModels
import SpotterNostr

/// One signed event on its way to one relay: a row of the publication queue (`NostrPublisher`), keyed by the
/// event's id and the relay, so each relay gets each event once.
public struct NostrPublication: Sendable, Equatable, Identifiable {
    public enum State: String, Sendable, Equatable {
        /// Not yet answered `OK true`: waits for its next try (`nextAttempt`), however long it takes.
        case pending
        /// The relay has it (`OK true`, or `duplicate:`).
        case delivered
        /// The relay refused it for good (`invalid:`, `blocked:`, `restricted:`, `pow:`): never sent again;
        /// `message` says why, for the app to show.
        case refused
    }

    public var eventID: NostrEventID
    public var relay: NostrRelayURL
    public var state: State
    /// Tries that did not deliver it; the wait before the next grows with them.
    public var attempts: Int
    /// The relay's words (delivered or refused), or why the last try did not deliver (pending).
    public var message: String?
    /// When a drain next sends it (pending only; nil before its first try).
    public var nextAttempt: Date?

    public var id: String { "\(eventID.rawValue) \(relay.rawValue)" }

    public init(
        eventID: NostrEventID, relay: NostrRelayURL, state: State, attempts: Int = 0, message: String? = nil,
        nextAttempt: Date? = nil
    ) {
        self.eventID = eventID
        self.relay = relay
        self.state = state
        self.attempts = attempts
        self.message = message
        self.nextAttempt = nextAttempt
    }
}

/// A signed event in the queue with where it stands on each relay, and the post it stands for when it is a
/// workout composed on this device: what a screen shows as "waiting to be sent".
public struct NostrQueuedEvent: Sendable, Equatable, Identifiable {
    public var event: NostrEvent
    /// The workout post the event carries, as the person composed it (nil for other events).
    public var post: CreatePostRequest?
    public var createdAt: Date
    public var publications: [NostrPublication]

    public var id: NostrEventID { event.id }

    /// True until every relay has it or refused it.
    public var isPending: Bool { publications.contains { $0.state == .pending } }
    /// Relays that refused it for good, with their words.
    public var refusals: [NostrPublication] { publications.filter { $0.state == .refused } }
}

/// What happened to one row in a drain.
public enum NostrPublicationOutcome: Sendable, Equatable {
    case delivered(NostrPublication)
    case refused(NostrPublication)
    /// Not delivered this time; it waits (its `message` says why, `nextAttempt` until when).
    case waiting(NostrPublication)
}

/// What follows one try of a publication: a pure function of the relay's answer, the tries so far and the
/// clock, so the schedule is tested without a relay.
enum NostrPublicationSchedule {
    enum Step: Equatable {
        case delivered(String)
        case refused(String)
        case retry(at: Date, because: String)
    }

    /// - Parameters:
    ///   - answer: the relay's `OK`, or why there was none.
    ///   - attempts: tries that did not deliver, this one included.
    static func step(
        after answer: Result<NostrPublishResult, NostrRelayError>, attempts: Int, now: Date, policy: RetryPolicy,
        random: Double
    ) -> Step {
        let wait = policy.backoff(after: attempts, random: random).timeInterval
        switch answer {
        case .success(let result) where result.isDelivered: return .delivered(result.message)
        case .success(let result) where result.isPermanentRefusal: return .refused(result.message)
        case .success(let result):
            return .retry(at: now + wait, because: result.message.isEmpty ? "refused for now" : result.message)
        case .failure(let error): return .retry(at: now + wait, because: error.description)
        }
    }
}
