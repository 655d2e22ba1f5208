import Foundation

/// How structured values (a workout, its records, tag lists) are kept in a TEXT column by both adapters:
/// JSON with RFC 3339 dates, the same shape as on the wire.
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
        return try? decoder.decode(T.self, from: Data(text.utf8))
    }
}
