/// One server reply ([RFC 5321 §4.2](https://www.rfc-editor.org/rfc/rfc5321#section-4.2)): a three-digit code
/// and its text lines. `250-first` lines continue a reply and a `250 last` line ends it.
struct SMTPReply: Equatable, Sendable {
    var code: Int
    var lines: [String]

    /// The text of every line, for reasons and for the EHLO keywords.
    var text: String { lines.joined(separator: " / ") }

    /// The RFC 3463 enhanced status code the reply starts with, such as `5.1.1`, when the server gives one.
    var enhancedStatus: (klass: Int, subject: Int, detail: Int)? {
        guard let first = lines.first?.split(separator: " ").first else { return nil }
        let parts = first.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3, parts[0] == code / 100 else { return nil }
        return (parts[0], parts[1], parts[2])
    }

    /// Collects the lines of one reply.
    struct Reader {
        struct Malformed: Error, CustomStringConvertible {
            let line: String
            var description: String { "malformed SMTP reply line: \(line.prefix(80))" }
        }

        private var code: Int?
        private var lines: [String] = []

        /// The whole reply once `line` ends it, `nil` while it continues.
        mutating func read(_ line: String) throws -> SMTPReply? {
            let characters = Array(line)
            guard characters.count >= 3, let code = Int(String(characters[0..<3])), (200...599).contains(code),
                characters.count == 3 || characters[3] == " " || characters[3] == "-",
                self.code == nil || self.code == code
            else { throw Malformed(line: line) }
            self.code = code
            lines.append(characters.count > 4 ? String(characters[4...]) : "")
            guard characters.count == 3 || characters[3] == " " else { return nil }
            defer { self = Reader() }
            return SMTPReply(code: code, lines: lines)
        }
    }
}
