import Foundation

/// A node of a YAML document read by `YAMLSubset`.
indirect enum YAMLNode: Sendable {
    case scalar(String)
    case list([YAMLNode])
    case map([Entry])

    struct Entry: Sendable {
        let key: String
        let value: YAMLNode
    }

    subscript(key: String) -> YAMLNode? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var string: String? {
        guard case .scalar(let text) = self else { return nil }
        return text
    }

    var items: [YAMLNode] {
        guard case .list(let items) = self else { return [] }
        return items
    }

    var entries: [Entry] {
        guard case .map(let entries) = self else { return [] }
        return entries
    }
}

/// Reads the YAML that the OpenAPI document is written in, and no more: block mappings and sequences, flow
/// mappings and sequences (also across lines), quoted and plain scalars, and `|`/`>` block scalars (whose text
/// the tests never need, so it is kept only roughly). No anchors, tags or multi-document streams.
///
/// The test target has no YAML library; this is enough for tests to read the contract rather than repeat it.
struct YAMLSubset {
    struct Malformed: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "YAML line \(line): \(reason)" }
    }

    private struct Line {
        var indent: Int
        var text: Substring
        let number: Int
    }

    private var lines: [Line]
    private var index = 0

    static func parse(_ text: String) throws -> YAMLNode {
        var parser = YAMLSubset(text)
        return try parser.block()
    }

    private init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, raw in
            let text = raw.drop { $0 == " " }
            // Blank lines and comments carry no structure; inside a block scalar they are skipped with it.
            if text.isEmpty || text.hasPrefix("#") { return nil }
            return Line(indent: raw.count - text.count, text: text, number: number + 1)
        }
    }

    private static func isItem(_ text: Substring) -> Bool { text == "-" || text.hasPrefix("- ") }

    private mutating func block() throws -> YAMLNode {
        guard index < lines.count else { return .scalar("") }
        let first = lines[index]
        return Self.isItem(first.text) ? try sequence(first.indent) : try mapping(first.indent)
    }

    private mutating func sequence(_ indent: Int) throws -> YAMLNode {
        var items: [YAMLNode] = []
        while index < lines.count, lines[index].indent == indent, Self.isItem(lines[index].text) {
            let rest = lines[index].text.dropFirst(2).drop { $0 == " " }
            if rest.isEmpty {
                index += 1
                items.append(try block())
            } else if Self.key(in: rest) != nil {
                // `- key: value` opens a mapping whose keys line up with `key`.
                lines[index].indent = indent + (lines[index].text.count - rest.count)
                lines[index].text = rest
                items.append(try mapping(lines[index].indent))
            } else {
                index += 1
                items.append(try value(rest))
            }
        }
        return .list(items)
    }

    private mutating func mapping(_ indent: Int) throws -> YAMLNode {
        var entries: [YAMLNode.Entry] = []
        while index < lines.count, lines[index].indent == indent, !Self.isItem(lines[index].text) {
            let line = lines[index]
            guard let (key, rest) = Self.key(in: line.text) else {
                throw Malformed(line: line.number, reason: "expected `key: value`")
            }
            index += 1
            let node: YAMLNode
            if !rest.isEmpty {
                node = try value(rest, indent: indent)
            } else if index < lines.count,
                lines[index].indent > indent
                    || (lines[index].indent == indent && Self.isItem(lines[index].text))
            {
                node = try block()
            } else {
                node = .scalar("")
            }
            entries.append(.init(key: key, value: node))
        }
        return .map(entries)
    }

    /// `key` and what follows `key:`, if the line is a mapping entry.
    private static func key(in text: Substring) -> (String, Substring)? {
        if let quote = text.first, quote == "'" || quote == "\"" {
            guard let close = text.dropFirst().firstIndex(of: quote) else { return nil }
            let after = text[text.index(after: close)...]
            guard after.hasPrefix(":") else { return nil }
            return (String(text[text.index(after: text.startIndex)..<close]), after.dropFirst().drop { $0 == " " })
        }
        guard text.first != "[", text.first != "{" else { return nil }
        var position = text.startIndex
        while let colon = text[position...].firstIndex(of: ":") {
            let next = text.index(after: colon)
            if next == text.endIndex || text[next] == " " {
                return (String(text[..<colon]), text[next...].drop { $0 == " " })
            }
            position = next
        }
        return nil
    }

    /// The value after `key:` or `- `: a block scalar, a flow collection (joined across lines until its
    /// brackets close), or a scalar.
    private mutating func value(_ text: Substring, indent: Int = -1) throws -> YAMLNode {
        if ["|", "|-", "|+", ">", ">-", ">+"].contains(text) {
            var content: [Substring] = []
            while index < lines.count, lines[index].indent > indent {
                content.append(lines[index].text)
                index += 1
            }
            return .scalar(content.joined(separator: "\n"))
        }
        guard text.first == "[" || text.first == "{" else { return .scalar(Self.unquote(text)) }
        var flow = String(text)
        while !Self.isBalanced(flow) {
            guard index < lines.count else { throw Malformed(line: lines.last?.number ?? 0, reason: "unclosed") }
            flow += " " + lines[index].text
            index += 1
        }
        var reader = FlowReader(Array(flow))
        return try reader.node()
    }

    private static func isBalanced(_ text: String) -> Bool {
        var depth = 0
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                depth -= 1
            }
        }
        return depth == 0
    }

    fileprivate static func unquote(_ text: Substring) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, let first = trimmed.first, first == "'" || first == "\"", trimmed.last == first {
            let inner = String(trimmed.dropFirst().dropLast())
            return first == "'" ? inner.replacingOccurrences(of: "''", with: "'") : inner
        }
        return trimmed
    }
}

/// Reads one flow collection (`{ a: b, c: [d, e] }`) character by character.
private struct FlowReader {
    let characters: [Character]
    var position = 0

    init(_ characters: [Character]) { self.characters = characters }

    mutating func node() throws -> YAMLNode {
        skipSpaces()
        switch peek {
        case "{":
            position += 1
            var entries: [YAMLNode.Entry] = []
            while true {
                skipSpaces()
                if peek == "}" { break }
                let key = scalar(until: [":"])
                guard peek == ":" else { throw YAMLSubset.Malformed(line: 0, reason: "expected `:` in flow") }
                position += 1
                entries.append(.init(key: key, value: try node()))
                try separator(closing: "}")
            }
            position += 1
            return .map(entries)
        case "[":
            position += 1
            var items: [YAMLNode] = []
            while true {
                skipSpaces()
                if peek == "]" { break }
                items.append(try node())
                try separator(closing: "]")
            }
            position += 1
            return .list(items)
        default:
            return .scalar(scalar(until: [",", "}", "]"]))
        }
    }

    private var peek: Character? { position < characters.count ? characters[position] : nil }

    private mutating func skipSpaces() {
        while peek == " " { position += 1 }
    }

    private mutating func separator(closing: Character) throws {
        skipSpaces()
        if peek == "," {
            position += 1
        } else if peek != closing {
            throw YAMLSubset.Malformed(line: 0, reason: "expected `,` or `\(closing)` in flow")
        }
    }

    private mutating func scalar(until stops: Set<Character>) -> String {
        skipSpaces()
        if let quote = peek, quote == "'" || quote == "\"" {
            var text = ""
            position += 1
            while let character = peek {
                position += 1
                if character == quote {
                    if quote == "'", peek == "'" {  // '' is a quote inside single quotes
                        text.append("'")
                        position += 1
                        continue
                    }
                    break
                }
                text.append(character)
            }
            return text
        }
        let start = position
        while let character = peek, !stops.contains(character) { position += 1 }
        return String(characters[start..<position]).trimmingCharacters(in: .whitespaces)
    }
}
