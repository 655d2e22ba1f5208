import Foundation

/// How the rules measure text, the way the OpenAPI document measures it, so the server takes exactly what the
/// document allows.
///
/// JSON Schema's `minLength` and `maxLength` count Unicode code points of the text as sent (JSON Schema
/// Validation §6.3.1); `String.count` counts grapheme clusters (`"e\u{301}"` is one), and a rule that trimmed
/// before counting let a 100-character name with a trailing space through where the document says 100. So a
/// limit counts the text as sent, in code points; "not blank" is a separate rule, which the document states as
/// a pattern needing one character outside `CharacterSet.whitespacesAndNewlines`.
///
/// ```swift
/// "Cafe\u{301}".textLength                 // 5, as the document counts it (`count` says 4)
/// TextLength.isBlank(" \n")                // true
/// ```
extension StringProtocol {
    public var textLength: Int { unicodeScalars.count }
}

public enum TextLength {
    /// Nothing but whitespace and newlines (`CharacterSet.whitespacesAndNewlines`): what a name may not be.
    public static func isBlank(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { CharacterSet.whitespacesAndNewlines.contains($0) }
    }

    /// A name or title: something besides whitespace, and at most `maxLength` code points as sent.
    public static func isName(_ text: some StringProtocol, maxLength: Int) -> Bool {
        !isBlank(text) && text.textLength <= maxLength
    }
}
