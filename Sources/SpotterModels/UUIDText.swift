import Foundation

/// UUIDs as text (8-4-4-4-12 hex digits), read and written without Foundation's `sscanf` and `sprintf`.
///
/// Every id a row holds is parsed and every id a query binds or a response carries is written, many times a
/// request, and on Linux Foundation does each through C's `sscanf` and `sprintf`, dear for so short a text.
/// Accepts what `UUID(uuidString:)` accepts, either case; writes lowercase, the wire's form.
public enum UUIDText {
    /// A nibble's lowercase hex digit, by arithmetic: a lookup in a static array paid a lazy-initialisation check
    /// and a bounds check per digit, about 650 instructions an id, and a kudos formats twenty ids.
    @inline(__always) private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
    /// Whether a dash comes before the byte at `index` of the 16.
    private static func dashBefore(_ index: Int) -> Bool { index == 4 || index == 6 || index == 8 || index == 10 }

    public static func format(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if dashBefore(index) {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = hexDigit(byte >> 4)
                    text[at + 1] = hexDigit(byte & 0x0F)
                    at += 2
                }
                return at
            }
        }
    }

    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var at = 0
                for index in 0..<16 {
                    if dashBefore(index) {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = value(of: utf8[at]), let low = value(of: utf8[at + 1]) else { return false }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return parsed ? UUID(uuid: bytes) : nil
        }
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
