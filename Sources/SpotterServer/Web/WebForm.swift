import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, in the order the browser sent them.
///
/// Order matters to the workout builder, whose rows repeat the same names (`set_exercise`, `set_weight`,
/// `set_reps`); a dictionary would lose both the repeats and their order.
struct WebForm: Sendable {
    var fields: [(name: String, value: String)]

    init(fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    /// Parses a urlencoded body; undecodable escapes keep their raw text rather than failing the form.
    init(urlEncoded body: String) {
        fields = body.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// The first value of a field, trimmed; `nil` when absent or empty.
    subscript(name: String) -> String? {
        guard
            let value = fields.first(where: { $0.name == name })?.value.trimmingCharacters(in: .whitespacesAndNewlines),
            !value.isEmpty
        else { return nil }
        return value
    }

    /// Every value of a repeated field, in order (empty ones kept, so parallel fields stay aligned).
    func all(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map { $0.value.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
