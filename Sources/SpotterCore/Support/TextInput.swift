import SpotterModels

/// Which control characters a text field may hold: one rule for every text a request brings, through the API or
/// the web app, whichever database keeps it.
///
/// PostgreSQL refuses NUL in text where SQLite stores it, so a NUL that got as far as the database was a 500 on
/// one and a stored oddity on the other. A control character (Unicode's `Cc`: C0, DEL and C1) means nothing in
/// a name, a login or a token, and in prose only a line break or a tab does; everything else is refused before
/// any storage sees it, with a 422 naming the field.
///
/// Refused, not stripped: stripping would silently store something other than what the client sent (and an
/// offline client compares what it sent with what it gets back), and the client that sends a NUL has a bug it
/// should hear about. People don't type these characters: text fields and textareas already drop them.
///
/// ```swift
/// var problems: [FieldError] = []
/// let text = TextInput.check(request.text, "text", as: .lines, into: &problems)  // CR LF now LF
/// ```
///
/// Fields with a stricter format of their own (usernames, hex tokens, `HH:mm` times, ids, enums) refuse these
/// characters by that format; this rule is for fields whose format lets any text through.
public enum TextInput {
    public enum Kind: Sendable {
        /// One line: a name, a title, a login, a password, a token, a search or filter term, a path segment.
        /// No control character at all.
        case line
        /// Prose written over several lines: a post, a comment, a bio, notes, a description. Line feeds and
        /// tabs stay; CR LF and a lone CR become LF (browsers send a textarea's line breaks as CR LF).
        case lines
    }

    /// Why `text` can't be `kind` text, or `nil` when it can.
    public static func problem(in text: String, as kind: Kind) -> String? {
        for scalar in text.unicodeScalars where isControl(scalar) {
            if kind == .lines, scalar == "\n" || scalar == "\r" || scalar == "\t" { continue }
            return kind == .line
                ? "may not contain control characters or line breaks"
                : "may not contain control characters other than line breaks and tabs"
        }
        return nil
    }

    /// `text` as it is kept: `lines` text with its line breaks made LF; `line` text unchanged.
    public static func normalized(_ text: String, as kind: Kind) -> String {
        guard kind == .lines, text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// `text` normalized, noting in `problems` when it breaks the rule, for checks that report every bad field.
    public static func check(
        _ text: String, _ field: String, as kind: Kind = .line, into problems: inout [FieldError]
    ) -> String {
        if let problem = problem(in: text, as: kind) { problems.append(FieldError(field: field, detail: problem)) }
        return normalized(text, as: kind)
    }

    /// `text` normalized, or a 422 naming `field`.
    public static func checked(_ text: String, field: String, as kind: Kind = .line) throws -> String {
        if let problem = problem(in: text, as: kind) { throw SpotterError.invalid(field, problem) }
        return normalized(text, as: kind)
    }

    /// Unicode's `Cc` category: U+0000–U+001F and U+007F–U+009F, NUL among them.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
