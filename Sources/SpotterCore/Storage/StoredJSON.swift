import Foundation
import SpotterModels
import Synchronization

/// How structured values (a workout, its records, tag lists) are kept in a TEXT column by both adapters:
/// JSON with RFC 3339 dates and sorted keys, the same shape as on the wire.
public enum StoredJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    public static func encode(_ value: some Encodable) -> String {
        // Encoding our own value types cannot fail; an empty array is the safe fallback for lists.
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    public static func decode<T: Decodable>(_ type: T.Type, from text: String?) -> T? {
        guard let text else { return nil }
        // Most posts have no records, tags or mentions: skip the decoder's setup for the empty list.
        if text == "[]", let list = T.self as? any EmptyList.Type { return list.empty as? T }
        return try? decoder.decode(T.self, from: Data(text.utf8))
    }

    /// `decode`, remembering recent results by their text. Feeds read the same posts again and again, and
    /// decoding a workout's JSON afresh each time was among the dearest parts of a Following page under load;
    /// a lookup by text costs one hash of it. An edited workout has a different text, so nothing goes stale.
    /// Hashtags too: a community uses a few hundred tags, so the same lists come back page after page. For
    /// values that seldom repeat, `decode`: they would only push these out.
    public static func decodeRemembered<T: Decodable & Sendable>(_ type: T.Type, from text: String?) -> T? {
        guard let text else { return nil }
        if text == "[]", let list = T.self as? any EmptyList.Type { return list.empty as? T }
        let key = RememberedKey(type: ObjectIdentifier(T.self), text: text)
        if let known = remembered.withLock({ $0.value(for: key) }) as? T { return known }
        guard let value = decode(T.self, from: text) else { return nil }
        remembered.withLock { $0.store(value, for: key) }
        return value
    }

    private static let remembered = Mutex(RecentValues<RememberedKey, any Sendable>(capacity: 4096))
}

private protocol EmptyList {
    static var empty: Self { get }
}

extension Array: EmptyList {
    static var empty: Self { [] }
}

private struct RememberedKey: Hashable {
    let type: ObjectIdentifier
    let text: String
}

/// A post's photos as both adapters keep them in `posts.media`: the attachments in order, with URLs empty.
public enum StoredMedia {
    public static func encode(_ media: [MediaAttachment]) -> String {
        media.isEmpty ? "[]" : StoredJSON.encode(media)
    }

    public static func decode(_ text: String?) -> [MediaAttachment] {
        StoredJSON.decode([MediaAttachment].self, from: text) ?? []
    }
}
