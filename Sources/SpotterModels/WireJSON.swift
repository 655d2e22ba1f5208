import Foundation

/// The one JSON configuration of the Spotter wire: what SpotterKit and the `spotter` client send and keep,
/// and what the server reads and writes (`SpotterServer`'s `JSONCoding` sets the same options today).
///
/// - Keys are spelled by each wire type's `CodingKeys` (snake_case); no key strategy is set, so the keys of
///   dictionaries, such as analytics properties, pass through untouched.
/// - Keys are sorted (`.sortedKeys`), so one value gives the same bytes in every process. A Swift
///   `Dictionary` iterates in an order seeded per process, and the server compares the body of a repeated
///   `Idempotency-Key` with the first: a queued action sent again by another process must not look
///   different (issue 23).
/// - Slashes are not escaped (`.withoutEscapingSlashes`): `"a/b"`, not `"a\/b"`.
/// - Dates are written RFC 3339 in UTC with whole seconds (`.iso8601`: `2026-11-22T19:39:13Z`), and read in
///   every form RFC 3339 allows (`RFC3339`): lower case, fractions of a second, any offset.
///
/// ```swift
/// let body = try WireJSON.encoder().encode(CreatePostRequest(kind: .note, text: "Long run"))
/// // {"kind":"note","text":"Long run"}, byte for byte, in every process
/// let post = try WireJSON.decoder().decode(Post.self, from: response.body)
/// ```
public enum WireJSON {
    /// A new encoder with the wire's options.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A new decoder with the wire's options.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = RFC3339.date(from: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "must be an RFC 3339 time such as 2026-11-22T19:39:13Z.")
            }
            return date
        }
        return decoder
    }
}
