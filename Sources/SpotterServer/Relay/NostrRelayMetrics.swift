import Metrics

/// What an operator watches on the relay: open sockets, and what happened to the events offered.
enum NostrRelayMetrics {
    static let connections = Meter(label: "spotter_relay_connections")

    /// An `EVENT` answered: `accepted` true or false, with the message's NIP-01 prefix as the reason.
    static func event(accepted: Bool, message: String) {
        let prefix = message.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let reason = accepted ? (prefix == "duplicate" ? "duplicate" : "stored") : (prefix.isEmpty ? "refused" : prefix)
        Counter(label: "spotter_relay_events_total", dimensions: [("result", reason)]).increment()
    }
}
