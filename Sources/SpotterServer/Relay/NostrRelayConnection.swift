import Foundation
import NIOCore
import SpotterCore
import SpotterNostr

/// One relay socket's state, shared between its reader and the relay's hub: who it authenticated as, its
/// subscriptions, and its frames on their way out.
///
/// A subscription is live from the moment its `REQ` is read: events that arrive while the stored ones are
/// being read wait in the subscription and go out after `EOSE`, less those the stored answer already had, so
/// nothing falls between the two.
final class NostrRelayConnection: @unchecked Sendable {
    let id = UUID()
    let writer: SocketWriter
    /// The NIP-42 challenge this socket's `AUTH` must answer.
    let challenge: String
    /// The address its `AUTH` events must name.
    let relayURL: String
    private let lock = NSLock()
    private var subscriptions: [String: Subscription] = [:]
    private var authenticated = NostrReader.anonymous

    struct Subscription {
        var filters: [NostrFilter]
        /// The subscription id as a JSON string, written once.
        var encodedID: String
        /// Live events held while the stored ones are read; `nil` once `EOSE` went out.
        var held: [NostrEvent]?
    }

    init(writer: SocketWriter, challenge: String, relayURL: String) {
        self.writer = writer
        self.challenge = challenge
        self.relayURL = relayURL
    }

    var reader: NostrReader {
        get { lock.withLock { authenticated } }
        set { lock.withLock { authenticated = newValue } }
    }

    /// Opens (or replaces, as NIP-01 says a `REQ` with a known id does) a subscription; `false` when the
    /// socket has `limit` open already.
    func open(_ subscription: String, filters: [NostrFilter], limit: Int) -> Bool {
        let encoded = Self.encode(subscription)
        return lock.withLock {
            guard subscriptions[subscription] != nil || subscriptions.count < limit else { return false }
            subscriptions[subscription] = Subscription(filters: filters, encodedID: encoded, held: [])
            return true
        }
    }

    /// Ends the stored part: the live events held meanwhile that the stored answer did not have.
    func finishStored(_ subscription: String, sent: Set<NostrEventID>) -> [NostrEvent] {
        lock.withLock {
            guard let held = subscriptions[subscription]?.held else { return [] }
            subscriptions[subscription]?.held = nil
            return held.filter { !sent.contains($0.id) }
        }
    }

    func close(_ subscription: String) { lock.withLock { _ = subscriptions.removeValue(forKey: subscription) } }

    var subscriptionCount: Int { lock.withLock { subscriptions.count } }

    /// Whether any of its subscriptions matches `event`.
    func matches(_ event: NostrEvent) -> Bool {
        lock.withLock { subscriptions.values.contains { $0.filters.matches(event) } }
    }

    /// The frames a live event makes on this socket (one per matching subscription), holding it for
    /// subscriptions still reading stored events.
    func frames(for event: NostrEvent, json: String) -> [String] {
        lock.withLock {
            var frames: [String] = []
            for (name, subscription) in subscriptions where subscription.filters.matches(event) {
                if subscription.held != nil {
                    subscriptions[name]?.held?.append(event)
                } else {
                    frames.append(Self.eventFrame(subscription.encodedID, json))
                }
            }
            return frames
        }
    }

    func send(_ message: NostrRelayMessage) { writer.send(text: message.json) }

    /// `["EVENT",<subscription>,<event>]` from the pieces already written.
    static func eventFrame(_ encodedID: String, _ json: String) -> String { "[\"EVENT\",\(encodedID),\(json)]" }

    static func encode(_ subscription: String) -> String {
        (try? NostrJSON.encoder.encode(subscription)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
