/// The quoted-printable transfer encoding ([RFC 2045 §6.7](https://www.rfc-editor.org/rfc/rfc2045#section-6.7)):
/// mostly-ASCII text stays readable in the raw message, any UTF-8 survives 7-bit relays, and no encoded line
/// is longer than 76 characters, far under SMTP's 998 (RFC 5321 §4.5.3.1.6).
enum QuotedPrintable {
    /// The encoded text with CRLF line ends; the text's own line breaks (LF, CRLF or CR) become hard breaks.
    static func encode(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false)
            .map { encodeLine(Array($0.utf8)) }
            .joined(separator: "\r\n")
    }

    /// One line of text, broken with soft line breaks (`=` at the end) to keep each output line within 76.
    private static func encodeLine(_ bytes: [UInt8]) -> String {
        var output = ""
        var lineLength = 0
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let token: String
            switch byte {
            case 0x20 where !isLast, 0x09 where !isLast:
                // Spaces and tabs pass, except at a line's end where relays may strip them (rule 3).
                token = String(UnicodeScalar(byte))
            case 33...60, 62...126:
                token = String(UnicodeScalar(byte))
            default:
                token = "=" + hex(byte)
            }
            // Leave room for the "=" of a soft break.
            if lineLength + token.count > 75 {
                output += "=\r\n"
                lineLength = 0
            }
            output += token
            lineLength += token.count
        }
        return output
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
