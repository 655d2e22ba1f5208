import Foundation

/// Base64url without padding (RFC 4648 §5): the alphabet of tokens, cursors and JWT parts, safe in URLs.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        // Base64's alphabet to base64url's in one pass: three `replacingOccurrences` each searched and copied
        // the whole text (through `NSString` on Linux), for every feed page's cursor.
        let base64 = data.base64EncodedString()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base64.utf8.count)
        for byte in base64.utf8 {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func encode(_ text: String) -> String { encode(Data(text.utf8)) }

    /// The bytes, or `nil` for text that isn't base64url.
    public static func decode(_ text: String) -> Data? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            default: bytes.append(byte)
            }
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4))
        return Data(base64Encoded: Data(bytes))
    }

    /// The UTF-8 text, or `nil`.
    public static func decodeText(_ text: String) -> String? {
        decode(text).flatMap { String(data: $0, encoding: .utf8) }
    }
}
