import Foundation
import SpotterNostr

/// The checks of the two events a key proves itself with: a link event answering a challenge (NIP-42 shaped,
/// kind 22242) and a sign-in's `Authorization: Nostr` event (NIP-98, kind 27235). Pure: the clock's reading
/// comes in as `now`. Each refusal says which check failed, in words fit for a problem's detail.
enum NostrProofs {
    struct Refusal: Error, Equatable {
        let detail: String
    }

    /// Why `event` is not a link event for `relayURL` made around `now`, or `nil` when it is one. The
    /// challenge itself is checked against the store by the caller.
    static func linkProblem(_ event: NostrEvent, relayURL: String, now: Date, window: TimeInterval) -> String? {
        guard event.kind == .clientAuthentication else { return "is not of kind 22242" }
        guard event.hasValidID else { return "has an id that is not the hash of its fields" }
        guard event.hasValidSignature else { return "has a signature that is not valid for its pubkey" }
        if let problem = ageProblem(event, now: now, window: window) { return problem }
        guard let relay = event.firstTagValue("relay") else { return "has no relay tag" }
        guard sameRelay(relay, relayURL) else { return "has a relay tag that names another relay than \(relayURL)" }
        guard event.firstTagValue("challenge") != nil else { return "has no challenge tag" }
        return nil
    }

    /// The event of a NIP-98 header (`Nostr <base64 of the event's JSON>`) when it is a valid kind 27235 event
    /// naming `url` and `method`, made within `window` of `now`; else the refusal that says why.
    static func authorizationEvent(
        header: String?, url: String, method: String, now: Date, window: TimeInterval
    ) throws(Refusal) -> NostrEvent {
        guard let header, header.utf8.count <= 16 * 1024 else {
            throw Refusal(detail: "The Authorization header must be `Nostr <base64 of a signed kind 27235 event>`.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "nostr",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let event = try? NostrJSON.decoder.decode(NostrEvent.self, from: data)
        else {
            throw Refusal(detail: "The Authorization header must be `Nostr <base64 of a signed kind 27235 event>`.")
        }
        guard event.kind == .httpAuthentication else { throw Refusal(detail: "The event is not of kind 27235.") }
        guard event.hasValidID else { throw Refusal(detail: "The event's id is not the hash of its fields.") }
        guard event.hasValidSignature else {
            throw Refusal(detail: "The event's signature is not valid for its pubkey.")
        }
        if let problem = ageProblem(event, now: now, window: window) { throw Refusal(detail: "The event \(problem).") }
        guard event.firstTagValue("u") == url else { throw Refusal(detail: "The event's u tag must be \(url).") }
        guard event.firstTagValue("method")?.uppercased() == method else {
            throw Refusal(detail: "The event's method tag must be \(method).")
        }
        return event
    }

    static func ageProblem(_ event: NostrEvent, now: Date, window: TimeInterval) -> String? {
        let age = now.timeIntervalSince1970 - TimeInterval(event.createdAt)
        if age > window { return "is older than \(Int(window)) seconds" }
        if age < -window { return "is dated more than \(Int(window)) seconds ahead" }
        return nil
    }

    /// Relay URLs compare by scheme, host, port and path, ignoring case where URLs do and a trailing slash.
    static func sameRelay(_ lhs: String, _ rhs: String) -> Bool {
        func normal(_ text: String) -> String? {
            guard let url = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
                let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased()
            else { return nil }
            let port = url.port.map { ":\($0)" } ?? ""
            let path = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
            return "\(scheme)://\(host)\(port)\(path)"
        }
        guard let left = normal(lhs), let right = normal(rhs) else { return false }
        return left == right
    }

    /// The key as NIP-19 writes it (`npub1…`); a key is always 32 bytes, which NIP-19 always encodes.
    static func npub(_ key: NostrPublicKey) -> String {
        (try? NIP19Entity.publicKey(key).encode()) ?? key.rawValue
    }
}
