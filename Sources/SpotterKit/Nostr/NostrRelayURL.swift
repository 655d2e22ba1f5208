import Foundation

/// A relay's address: a `ws://` or `wss://` URL, kept in one spelling (scheme and host in lower case, no
/// trailing slash on an empty path) so one relay is one row however it was typed.
///
/// ```swift
/// let spotter = NostrRelayURL.spotter(server: URL(string: "https://spotter.example")!)  // wss://spotter.example/relay
/// let damus = NostrRelayURL("wss://relay.damus.io/")                                       // wss://relay.damus.io
/// ```
public struct NostrRelayURL: RawRepresentable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// Nil unless `rawValue` is a `ws` or `wss` URL with a host and no query or fragment.
    public init?(rawValue: String) {
        guard var components = URLComponents(string: rawValue.trimmingCharacters(in: .whitespaces)),
            let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        if components.path == "/" { components.path = "" }
        guard let text = components.string else { return nil }
        self.rawValue = text
    }

    public init?(_ text: String) { self.init(rawValue: text) }

    /// Spotter's own relay for the server at `server`: `/relay` under it, `wss` for `https`, `ws` for `http`.
    public static func spotter(server: URL) -> NostrRelayURL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = server.scheme?.lowercased() == "https" ? "wss" : "ws"
        let path = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = path + "/relay"
        components.query = nil
        components.fragment = nil
        return NostrRelayURL(rawValue: components.string ?? "") ?? NostrRelayURL(unchecked: "ws://localhost/relay")
    }

    private init(unchecked: String) { rawValue = unchecked }

    public var url: URL { URL(string: rawValue)! }
    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let url = Self(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a relay URL"))
        }
        self = url
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
