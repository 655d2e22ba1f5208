import Foundation
import SpotterNostr

/// What one relay connection is waiting for, as a pure value: the `OK` of each event sent and the stored
/// events of each subscription until its `EOSE`. `NostrRelayConnection` feeds it what the relay says and does
/// what it answers; tests drive it without a socket.
struct NostrRelayExchange {
    /// Who waits for what: an id the connection gives each waiter.
    typealias Waiter = Int

    enum Completion: Equatable {
        /// The relay answered the event's `OK`.
        case published(Waiter, NostrPublishResult)
        /// The subscription's stored events, at its `EOSE` (or its `CLOSED`, with the relay's message).
        case queried(Waiter, [NostrEvent], closed: String?)
    }

    private var publishing: [NostrEventID: [Waiter]] = [:]
    private var queries: [String: (waiter: Waiter, events: [NostrEvent])] = [:]

    var isIdle: Bool { publishing.isEmpty && queries.isEmpty }

    mutating func awaitOK(for event: NostrEventID, waiter: Waiter) { publishing[event, default: []].append(waiter) }

    mutating func awaitStoredEvents(subscription: String, waiter: Waiter) {
        queries[subscription] = (waiter, [])
    }

    /// Forgets a waiter that gave up (a timeout, a cancelled task).
    mutating func cancel(_ waiter: Waiter) {
        for (id, waiters) in publishing {
            let left = waiters.filter { $0 != waiter }
            publishing[id] = left.isEmpty ? nil : left
        }
        queries = queries.filter { $0.value.waiter != waiter }
    }

    /// Takes in one message from the relay; returns the waits it ends.
    mutating func receive(_ message: NostrRelayMessage) -> [Completion] {
        switch message {
        case .ok(let id, let accepted, let text):
            let result = NostrPublishResult(accepted: accepted, message: text)
            return (publishing.removeValue(forKey: id) ?? []).map { .published($0, result) }
        case .event(let subscription, let event):
            queries[subscription]?.events.append(event)
            return []
        case .endOfStoredEvents(let subscription):
            guard let query = queries.removeValue(forKey: subscription) else { return [] }
            return [.queried(query.waiter, query.events, closed: nil)]
        case .closed(let subscription, let text):
            guard let query = queries.removeValue(forKey: subscription) else { return [] }
            return [.queried(query.waiter, query.events, closed: text)]
        case .notice, .auth, .count:
            return []
        }
    }

    /// Every waiter, when the connection is gone: each fails.
    mutating func drop() -> [Waiter] {
        let waiters = publishing.values.flatMap { $0 } + queries.values.map(\.waiter)
        publishing = [:]
        queries = [:]
        return waiters
    }
}

/// A relay's answer to an event (NIP-01 `OK`).
public struct NostrPublishResult: Sendable, Equatable {
    public var accepted: Bool
    /// Empty, or a machine-readable prefix (`duplicate:`, `invalid:`, `blocked:`, `restricted:`, `rate-limited:`,
    /// `pow:`, `auth-required:`, `error:`) and words for a person.
    public var message: String

    public init(accepted: Bool, message: String) {
        self.accepted = accepted
        self.message = message
    }

    /// The relay has the event: it took it now, or had it already (`duplicate:`, even with `false`).
    public var isDelivered: Bool { accepted || prefix == "duplicate" }

    /// The relay will never take this event, however often it is sent: the event is malformed or its author
    /// is not allowed there. Other refusals (`rate-limited:`, `error:`, `auth-required:`, none) may pass later.
    public var isPermanentRefusal: Bool {
        !isDelivered && ["invalid", "blocked", "restricted", "pow"].contains(prefix)
    }

    /// The prefix before the first colon, if the message has one.
    public var prefix: String? {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        return String(message[..<colon]).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
