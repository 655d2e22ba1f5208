import Foundation

/// `POST /api/v1/nostr/keys`: links the key that signed `event`, a kind 22242 event answering a challenge from
/// `POST /api/v1/nostr/challenge`. Here beside the event rather than in SpotterModels, which sits below Nostr.
public struct NostrLinkRequest: Codable, Sendable, Equatable {
    public var event: NostrEvent

    public init(event: NostrEvent) { self.event = event }
}
