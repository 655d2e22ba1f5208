import Foundation
import SpotterNostr

/// NIP-42's checks of an `AUTH` event, until SpotterNostr's `NIP42.validate` takes their place.
enum NostrAuthChecks {
    /// Why `event` does not answer `challenge` for the relay at `relayURL`, or `nil` when it does.
    static func relayAuthProblem(_ event: NostrEvent, relayURL: String, challenge: String, now: Date) -> String? {
        guard event.kind == .clientAuthentication else { return "an AUTH event is of kind 22242" }
        guard event.isValid else { return "the event's id or signature does not verify" }
        guard event.firstTagValue("challenge") == challenge else { return "the challenge tag is not this one" }
        guard let relay = event.firstTagValue("relay"), sameRelay(relay, relayURL) else {
            return "the relay tag names another relay"
        }
        guard abs(Int64(now.timeIntervalSince1970) - event.createdAt) <= 600 else {
            return "the event is more than ten minutes from now"
        }
        return nil
    }

    static func sameRelay(_ a: String, _ b: String) -> Bool {
        func normal(_ text: String) -> String {
            var text = text.lowercased()
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        return normal(a) == normal(b)
    }
}
