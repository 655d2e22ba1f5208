import Foundation

/// Turns a user's query into safe search terms. Nothing here reaches SQL as text: the terms are bound.
public enum SearchTerms {
    /// The query for name search: lowercased, without a leading `@`.
    public static func name(_ query: String) -> String {
        let lower = query.lowercased()
        return lower.hasPrefix("@") ? String(lower.dropFirst()) : lower
    }

    /// A name as group names are compared: case and diacritics folded away, so "cafe" finds "Café Runners".
    public static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// The letter triples of a name query (what trigram indexes match on), unique, in order.
    public static func trigrams(_ query: String) -> [String] {
        let characters = Array(name(query))
        guard characters.count >= 3 else { return [] }
        var seen = Set<String>()
        return (0...(characters.count - 3)).compactMap { index in
            let trigram = String(characters[index..<index + 3])
            return seen.insert(trigram).inserted ? trigram : nil
        }
    }

    /// The words of a text query: runs of letters and digits, lowercased, at most 10.
    public static func words(_ query: String) -> [String] {
        query.lowercased().split { !($0.isLetter || $0.isNumber) }.prefix(10).map(String.init)
    }

    /// An FTS5 string literal: double quotes doubled, wrapped in quotes, so the text is never FTS5 syntax.
    public static func fts5Quoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A LIKE prefix pattern with `\` as the escape character, so `_` and `%` match themselves.
    public static func likePrefix(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
