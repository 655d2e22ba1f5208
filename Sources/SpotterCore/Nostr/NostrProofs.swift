import Foundation
import SpotterNostr

/// The two events a key proves itself with, checked by SpotterNostr's `NIP42` and `NIP98` and said in words fit
/// for a problem's detail: a link event answering a challenge (NIP-42 shaped, kind 22242) and a sign-in's
/// `Authorization: Nostr` event (NIP-98, kind 27235). Pure: the clock's reading comes in as `now`.
enum NostrProofs {
    struct Refusal: Error, Equatable {
        let detail: String
    }

    /// Why `event` is not a link event for `relayURL` made around `now`, or `nil` when it is one. The challenge
    /// it carries is checked against the store by the caller.
    static func linkProblem(_ event: NostrEvent, relayURL: String, now: Date, window: TimeInterval) -> String? {
        do {
            try NIP42.validate(
                event: event, relayURL: relayURL, challenge: event.firstTagValue("challenge") ?? "", now: now,
                window: window)
            return nil
        } catch {
            return error == .wrongRelay ? "\(error.description) than \(relayURL)" : error.description
        }
    }

    /// The event of a NIP-98 header (`Nostr <base64 of the event's JSON>`) when it is a valid kind 27235 event
    /// naming `url` and `method`, made within `window` of `now`; else the refusal that says why.
    static func authorizationEvent(
        header: String?, url: String, method: String, now: Date, window: TimeInterval
    ) throws(Refusal) -> NostrEvent {
        guard let header, header.utf8.count <= 16 * 1024 else { throw refusal(.malformedHeader, url: url) }
        do {
            return try NIP98.validate(header: header, url: url, method: method, now: now, window: window)
        } catch {
            throw refusal(error, url: url)
        }
    }

    /// A sentence for a problem's detail; a wrong URL names the right one, which the client needs and which is
    /// no secret.
    private static func refusal(_ error: NostrAuthError, url: String) -> Refusal {
        let sentence = error.description.prefix(1).uppercased() + error.description.dropFirst()
        return Refusal(detail: error == .wrongURL ? "\(sentence): it must be \(url)." : "\(sentence).")
    }

    /// The key as NIP-19 writes it (`npub1…`); a key is always 32 bytes, which NIP-19 always encodes.
    static func npub(_ key: NostrPublicKey) -> String {
        (try? NIP19Entity.publicKey(key).encode()) ?? key.rawValue
    }
}
