import Foundation

/// Base64url without padding (RFC 4648 §5): the alphabet of tokens, cursors and JWT parts, safe in URLs.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func encode(_ text: String) -> String { encode(Data(text.utf8)) }

    /// The bytes, or `nil` for text that isn't base64url.
    public static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    /// The UTF-8 text, or `nil`.
    public static func decodeText(_ text: String) -> String? {
        decode(text).flatMap { String(data: $0, encoding: .utf8) }
    }
}
