import Crypto
import Foundation

/// NIP-98 HTTP Auth: a request carries `Authorization: Nostr <base64 of a kind 27235 event>` whose `u` and
/// `method` tags name that very request, signed moments before it was sent. Spotter signs people in with it.
///
/// ```swift
/// // Client
/// let header = try await NIP98.authorizationHeader(url: "https://spotter.example/api/v1/auth/nostr",
///                                                   method: "POST", key: signer)
/// // Server
/// let event = try NIP98.validate(header: header, url: "https://spotter.example/api/v1/auth/nostr",
///                                method: "POST")
/// ```
///
/// Replay is not checked here: the caller must accept each event id once (NIP-98 leaves that to the server).
///
/// <https://github.com/nostr-protocol/nips/blob/master/98.md>
public enum NIP98 {
    /// The authorization scheme's name.
    public static let scheme = "Nostr"

    /// The event in `header`, once it is a valid kind 27235 event for `url` and `method`, dated within `window`
    /// seconds of `now` either way, and (when `body` is given and the event has a `payload` tag) for that body.
    ///
    /// `url` is the full URL of the request as the server's public address makes it; the `u` tag must equal it
    /// exactly (NIP-98 says so, and a looser match would let an event made for one URL open another).
    public static func validate(
        header: String, url: String, method: String, body: [UInt8]? = nil, now: Date = Date(),
        window: TimeInterval = 60
    ) throws(NostrAuthError) -> NostrEvent {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == scheme.lowercased() else { throw .malformedHeader }
        guard let data = Data(base64Encoded: padded(parts[1].trimmingCharacters(in: .whitespaces))),
            let event = try? NostrJSON.decoder.decode(NostrEvent.self, from: data)
        else { throw .malformedEvent }
        try NostrAuthError.check(event, kind: .httpAuthentication, now: now, window: window)
        guard let tagURL = event.firstTagValue("u") else { throw .missingTag("u") }
        guard tagURL == url else { throw .wrongURL }
        guard let tagMethod = event.firstTagValue("method") else { throw .missingTag("method") }
        guard tagMethod.uppercased() == method.uppercased() else { throw .wrongMethod }
        if let body, let payload = event.firstTagValue("payload") {
            guard payload.lowercased() == Hex.encode(SHA256.hash(data: body)) else { throw .wrongPayload }
        }
        return event
    }

    /// `Nostr <base64 event>` for a request to `url` with `method`, signed by `key` now (or at `createdAt`);
    /// with a `payload` tag when `body` is given.
    public static func authorizationHeader(
        url: String, method: String, body: [UInt8]? = nil, key: some NostrSigning, createdAt: Int64? = nil
    ) async throws -> String {
        var tags = [["u", url], ["method", method.uppercased()]]
        if let body { tags.append(["payload", Hex.encode(SHA256.hash(data: body))]) }
        let event = try await key.sign(kind: .httpAuthentication, tags: tags, content: "", createdAt: createdAt)
        return "\(scheme) \(Data(event.json.utf8).base64EncodedString())"
    }

    /// Base64 with its `=` padding restored: some clients leave it off.
    private static func padded(_ text: String) -> String {
        text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    }
}

/// NIP-42 authentication: a client answers a relay's `["AUTH", <challenge>]` with a kind 22242 event whose
/// `relay` and `challenge` tags name that relay and challenge. Spotter's relay uses it, and key linking uses
/// the same shape with a one-minute window.
///
/// ```swift
/// let event = try await NIP42.authEvent(relayURL: "wss://spotter.example/relay", challenge: challenge, key: key)
/// let accepted = try NIP42.validate(event: event, relayURL: "wss://spotter.example/relay", challenge: challenge)
/// ```
///
/// <https://github.com/nostr-protocol/nips/blob/master/42.md>
public enum NIP42 {
    /// `event`'s author, once the event is a valid kind 22242 event for this relay and challenge dated within
    /// `window` seconds of `now` either way (NIP-42 suggests ten minutes).
    ///
    /// The relay tag matches `relayURL` when scheme, host, port and path agree, ignoring case where URLs do and
    /// one trailing slash; a default port written out (`wss://host:443`) is the same relay.
    @discardableResult
    public static func validate(
        event: NostrEvent, relayURL: String, challenge: String, now: Date = Date(), window: TimeInterval = 600
    ) throws(NostrAuthError) -> NostrPublicKey {
        try NostrAuthError.check(event, kind: .clientAuthentication, now: now, window: window)
        guard let relay = event.firstTagValue("relay") else { throw .missingTag("relay") }
        guard let mine = RelayAddress(relayURL), RelayAddress(relay) == mine else { throw .wrongRelay }
        guard let tagChallenge = event.firstTagValue("challenge") else { throw .missingTag("challenge") }
        guard tagChallenge == challenge else { throw .wrongChallenge }
        return event.pubkey
    }

    /// The kind 22242 event answering `challenge` from the relay at `relayURL`, signed by `key`.
    public static func authEvent(
        relayURL: String, challenge: String, key: some NostrSigning, createdAt: Int64? = nil
    ) async throws -> NostrEvent {
        try await key.sign(
            kind: .clientAuthentication, tags: [["relay", relayURL], ["challenge", challenge]], content: "",
            createdAt: createdAt)
    }

    /// What of a relay URL names the relay.
    private struct RelayAddress: Equatable {
        var scheme: String
        var host: String
        var port: Int?
        var path: String

        init?(_ text: String) {
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                let host = components.host?.lowercased(), !host.isEmpty
            else { return nil }
            let defaultPort = ["ws": 80, "http": 80, "wss": 443, "https": 443][scheme]
            self.scheme = scheme
            self.host = host
            port = components.port == defaultPort ? nil : components.port
            path = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        }
    }
}

/// Why an authorization event (NIP-98, NIP-42) was refused. `description` is a sentence fit to follow NIP-01's
/// `auth-required: ` or `invalid: ` prefixes and to stand as a problem+json `detail`; it never quotes the event.
///
/// <https://github.com/nostr-protocol/nips/blob/master/98.md>
/// <https://github.com/nostr-protocol/nips/blob/master/42.md>
public enum NostrAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformedHeader
    case malformedEvent
    case wrongKind(NostrKind, expected: NostrKind)
    case invalidID
    case invalidSignature
    case tooOld(seconds: Int)
    case tooNew(seconds: Int)
    case missingTag(String)
    case wrongURL
    case wrongMethod
    case wrongPayload
    case wrongRelay
    case wrongChallenge

    public var description: String {
        switch self {
        case .malformedHeader: "the Authorization header is not \"Nostr\" followed by a base64 event"
        case .malformedEvent: "the Authorization header does not hold base64 JSON of a Nostr event"
        case .wrongKind(let kind, let expected): "the event is of kind \(kind.rawValue), not \(expected.rawValue)"
        case .invalidID: "the event's id is not the hash of its fields"
        case .invalidSignature: "the event's signature does not verify"
        case .tooOld(let seconds): "the event is older than \(seconds) seconds"
        case .tooNew(let seconds): "the event is dated more than \(seconds) seconds ahead"
        case .missingTag(let name): "the event has no \(name) tag"
        case .wrongURL: "the u tag names another URL"
        case .wrongMethod: "the method tag names another method"
        case .wrongPayload: "the payload tag is not the hash of this request's body"
        case .wrongRelay: "the relay tag names another relay"
        case .wrongChallenge: "the challenge tag is not the challenge this relay gave"
        }
    }

    /// The checks every authorization event shares: kind, id, signature, freshness.
    static func check(_ event: NostrEvent, kind: NostrKind, now: Date, window: TimeInterval) throws(NostrAuthError) {
        guard event.kind == kind else { throw .wrongKind(event.kind, expected: kind) }
        guard event.hasValidID else { throw .invalidID }
        guard event.hasValidSignature else { throw .invalidSignature }
        let age = now.timeIntervalSince1970 - TimeInterval(event.createdAt)
        if age > window { throw .tooOld(seconds: Int(window)) }
        if -age > window { throw .tooNew(seconds: Int(window)) }
    }
}
