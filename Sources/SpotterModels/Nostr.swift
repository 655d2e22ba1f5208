import Foundation

/// `POST /api/v1/nostr/challenge`: what a device signs to prove it holds a key. The signed event is NIP-42
/// shaped (kind 22242) with a `relay` tag of `relayURL` and a `challenge` tag of `challenge`, and must be made
/// within a minute. (The request that carries it, `NostrLinkRequest`, lives in SpotterNostr beside the event.)
public struct NostrChallenge: Codable, Sendable, Equatable {
    public var challenge: String
    /// This server's relay address (`wss://…/relay`), which the signed event names.
    public var relayURL: String
    public var expiresAt: Date

    public init(challenge: String, relayURL: String, expiresAt: Date) {
        self.challenge = challenge
        self.relayURL = relayURL
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case challenge
        case relayURL = "relay_url"
        case expiresAt = "expires_at"
    }
}

/// A Nostr key linked to the account (`GET /api/v1/nostr/keys`).
public struct NostrKey: Codable, Sendable, Equatable {
    /// 64 lower-case hex digits (the x-only public key).
    public var pubkey: String
    /// The same key as NIP-19 writes it.
    public var npub: String
    public var linkedAt: Date

    public init(pubkey: String, npub: String, linkedAt: Date) {
        self.pubkey = pubkey
        self.npub = npub
        self.linkedAt = linkedAt
    }

    enum CodingKeys: String, CodingKey {
        case pubkey, npub
        case linkedAt = "linked_at"
    }
}

/// `POST /api/v1/nostr/import/contacts`: follows made from the newest kind 3 contact list of the person's
/// linked keys that the relay holds.
public struct NostrContactsImport: Codable, Sendable, Equatable {
    /// Keys the list named.
    public var listed: Int
    /// Of those, the Spotter accounts now followed (newly or already).
    public var followed: [AuthorSummary]

    public init(listed: Int, followed: [AuthorSummary]) {
        self.listed = listed
        self.followed = followed
    }
}
