import Foundation

/// A subscription filter (NIP-01), with NIP-50's `search`.
///
/// An event matches a filter when it matches every condition the filter has; a list of filters matches when
/// any one does. Tag conditions (`#e`, `#t`, …) match when the event has a tag of that single-letter name
/// whose value is one of those listed.
///
/// <https://github.com/nostr-protocol/nips/blob/master/01.md>
/// <https://github.com/nostr-protocol/nips/blob/master/50.md>
public struct NostrFilter: Codable, Sendable, Hashable {
    public var ids: [NostrEventID]?
    public var authors: [NostrPublicKey]?
    public var kinds: [NostrKind]?
    /// Single-letter tag conditions: `"t": ["running"]` is the filter's `#t`.
    public var tags: [String: [String]]
    public var since: Int64?
    public var until: Int64?
    public var limit: Int?
    /// NIP-50: words to look for in the content.
    public var search: String?

    public init(
        ids: [NostrEventID]? = nil, authors: [NostrPublicKey]? = nil, kinds: [NostrKind]? = nil,
        tags: [String: [String]] = [:], since: Int64? = nil, until: Int64? = nil, limit: Int? = nil,
        search: String? = nil
    ) {
        self.ids = ids
        self.authors = authors
        self.kinds = kinds
        self.tags = tags
        self.since = since
        self.until = until
        self.limit = limit
        self.search = search
    }

    /// Whether `event` satisfies every condition (except `limit`, which bounds a stored query, and `search`,
    /// which the store's full-text index decides; `matches` only requires each search word to appear).
    public func matches(_ event: NostrEvent) -> Bool {
        if let ids, !ids.contains(event.id) { return false }
        if let authors, !authors.contains(event.pubkey) { return false }
        if let kinds, !kinds.contains(event.kind) { return false }
        if let since, event.createdAt < since { return false }
        if let until, event.createdAt > until { return false }
        for (name, values) in tags {
            let wanted = Set(values)
            guard event.tags.contains(where: { $0.count > 1 && $0[0] == name && wanted.contains($0[1]) }) else {
                return false
            }
        }
        if let search {
            let content = event.content.lowercased()
            for word in search.lowercased().split(whereSeparator: \.isWhitespace)
            where !word.contains(":") && !content.contains(word) {
                return false
            }
        }
        return true
    }

    // MARK: Codable: `#x` keys hold tag conditions.

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init()
        for key in container.allKeys {
            switch key.stringValue {
            case "ids": ids = try container.decode([NostrEventID].self, forKey: key)
            case "authors": authors = try container.decode([NostrPublicKey].self, forKey: key)
            case "kinds": kinds = try container.decode([NostrKind].self, forKey: key)
            case "since": since = try container.decode(Int64.self, forKey: key)
            case "until": until = try container.decode(Int64.self, forKey: key)
            case "limit": limit = try container.decode(Int.self, forKey: key)
            case "search": search = try container.decode(String.self, forKey: key)
            case let name
            where name.utf8.count == 2 && name.hasPrefix("#") && name.last!.isASCII && name.last!.isLetter:
                tags[String(name.dropFirst())] = try container.decode([String].self, forKey: key)
            default:
                // Unknown keys (other NIPs' extensions, multi-letter tags) are refused rather than ignored: a
                // filter read more widely than its sender meant would answer with events they did not ask for.
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "unsupported filter field \(key.stringValue)")
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(ids, forKey: Key(stringValue: "ids"))
        try container.encodeIfPresent(authors, forKey: Key(stringValue: "authors"))
        try container.encodeIfPresent(kinds, forKey: Key(stringValue: "kinds"))
        for (name, values) in tags.sorted(by: { $0.key < $1.key }) {
            try container.encode(values, forKey: Key(stringValue: "#" + name))
        }
        try container.encodeIfPresent(since, forKey: Key(stringValue: "since"))
        try container.encodeIfPresent(until, forKey: Key(stringValue: "until"))
        try container.encodeIfPresent(limit, forKey: Key(stringValue: "limit"))
        try container.encodeIfPresent(search, forKey: Key(stringValue: "search"))
    }
}

extension Array where Element == NostrFilter {
    /// Whether any filter of the list matches.
    public func matches(_ event: NostrEvent) -> Bool { contains { $0.matches(event) } }
}
