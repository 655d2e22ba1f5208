import Foundation

/// Renders an ``EmailMessage`` as an Internet message ([RFC 5322](https://www.rfc-editor.org/rfc/rfc5322))
/// with a MIME `multipart/alternative` body ([RFC 2045](https://www.rfc-editor.org/rfc/rfc2045),
/// [RFC 2046 §5.1.4](https://www.rfc-editor.org/rfc/rfc2046#section-5.1.4)): CRLF line ends, no line over 998
/// characters, every part quoted-printable UTF-8, so the message passes 7-bit relays unchanged.
struct MIMEMessage {
    var from: String
    var fromName: String?
    var message: EmailMessage
    var date: Date
    /// Unique per message, so threading and duplicate detection in mail clients work.
    var id: UUID = UUID()

    var rendered: String {
        let boundary = "=_spotter_\(id.uuidString)"
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        var lines = [
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(id.uuidString.lowercased())@\(domain)>",
            "From: \(Self.mailbox(from, name: fromName))",
            "To: <\(message.to)>",
            "Subject: \(EncodedWord.header(message.subject))",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "This is a multipart message in MIME format.",
        ]
        for (type, content) in [("text/plain", message.text), ("text/html", message.html)] {
            lines += [
                "--\(boundary)",
                "Content-Type: \(type); charset=utf-8",
                "Content-Transfer-Encoding: quoted-printable",
                "",
                QuotedPrintable.encode(content),
            ]
        }
        lines.append("--\(boundary)--")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `"Name" <address>`, the name quoted or encoded so any characters are safe (RFC 5322 §3.4).
    static func mailbox(_ address: String, name: String?) -> String {
        guard let name, !name.isEmpty else { return "<\(address)>" }
        if name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(quoted)\" <\(address)>"
        }
        return "\(EncodedWord.header(name)) <\(address)>"
    }

    /// `Tue, 01 Jul 2025 08:00:00 +0000` (RFC 5322 §3.3).
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}

/// Header text that may hold any Unicode: ASCII as it is, anything else as RFC 2047 encoded-words
/// ([RFC 2047 §2](https://www.rfc-editor.org/rfc/rfc2047#section-2)), folded so no header line is too long.
enum EncodedWord {
    static func header(_ text: String) -> String {
        // A line break in a header would end it and start another: the classic header injection.
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        let plain = flat.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        if plain && !flat.contains("=?") && flat.count <= 900 { return flat }
        // An encoded-word is at most 75 characters: `=?UTF-8?B?` and `?=` leave 63 for base64, 45 bytes of
        // UTF-8; words end on character boundaries so each decodes alone.
        var words: [String] = []
        var chunk = ""
        for character in flat {
            if chunk.utf8.count + String(character).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }
}
