import SpotterCore
import SpotterModels
import Testing

@Suite("Text input")
struct TextInputTests {
    @Test("one line holds no control character, C0, DEL or C1")
    func line() {
        for control in ["\u{0}", "\u{9}", "\u{A}", "\u{D}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}"] {
            #expect(TextInput.problem(in: "a\(control)b", as: .line) != nil, "U+\(control.unicodeScalars.first!.value)")
        }
    }

    @Test("prose keeps line feeds and tabs, and nothing else of the controls")
    func lines() {
        #expect(TextInput.problem(in: "Squats\n\t5x5\r\nDone\r", as: .lines) == nil)
        for control in ["\u{0}", "\u{B}", "\u{C}", "\u{1B}", "\u{7F}", "\u{85}"] {
            #expect(
                TextInput.problem(in: "a\(control)b", as: .lines) != nil, "U+\(control.unicodeScalars.first!.value)")
        }
    }

    @Test("what people write is not a control character: emoji sequences, other scripts, separators")
    func printable() {
        for text in ["🏋️‍♀️", "Größe", "ليلة", "a\u{200B}b", "a\u{2028}b", "x\u{FEFF}"] {
            #expect(TextInput.problem(in: text, as: .line) == nil, "\(text)")
        }
    }

    @Test("prose's CR LF and lone CR are kept as LF; one line is kept as sent")
    func normalized() {
        #expect(TextInput.normalized("a\r\nb\rc\nd", as: .lines) == "a\nb\nc\nd")
        #expect(TextInput.normalized("a\r\nb", as: .line) == "a\r\nb")
    }

    @Test("a refusal names the field, and a check reports every bad field")
    func naming() throws {
        #expect(
            throws: SpotterError.invalid("bio", "may not contain control characters other than line breaks and tabs")
        ) {
            try TextInput.checked("a\u{0}", field: "bio", as: .lines)
        }
        var problems: [FieldError] = []
        _ = TextInput.check("a\u{0}", "login", into: &problems)
        _ = TextInput.check("fine", "password", into: &problems)
        _ = TextInput.check("\u{1B}", "nonce", into: &problems)
        #expect(problems.map(\.field) == ["login", "nonce"])
    }
}
