/// SQL written once for both databases, with its binds named: each adapter renders it in its own dialect
/// (`rendered(_:)`) and binds the values by name, so no value is ever written into the text.
///
/// ```swift
/// let byID: SQLText = "SELECT id, text FROM comments WHERE id = \(bind: "id", as: "uuid")"
/// byID.rendered(.sqlite).text    // "SELECT id, text FROM comments WHERE id = :id"
/// byID.rendered(.postgres).text  // "SELECT id, text FROM comments WHERE id = $1::uuid"
/// ```
///
/// A fragment is an `SQLText` too and is interpolated whole (`\(PostSQL.visible)`), its binds with it. An alias or
/// a fixed keyword goes in with `\(raw:)`; where the dialects differ, `\(sqlite:postgres:)` says both.
public struct SQLText: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    enum Piece: Sendable, Hashable {
        case text(String)
        /// A bound value, by name. `cast` is the PostgreSQL type its placeholder is cast to, for a bind whose
        /// type PostgreSQL cannot infer (`IS NULL`, a prepared statement's parameters).
        case bind(name: String, cast: String?)
        case dialects(sqlite: String, postgres: String)
    }

    private(set) var pieces: [Piece]

    public init(stringLiteral value: String) { pieces = [.text(value)] }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { pieces.append(.text(literal)) }
        }

        /// A fragment, with its binds.
        public mutating func appendInterpolation(_ fragment: SQLText) { pieces += fragment.pieces }

        /// Text the code chose (an alias, a column, a fixed keyword): never a value someone sent.
        public mutating func appendInterpolation(raw text: String) { pieces.append(.text(text)) }

        /// A value bound by name.
        public mutating func appendInterpolation(bind name: String, as cast: String? = nil) {
            pieces.append(.bind(name: name, cast: cast))
        }

        /// Where the dialects write the same thing differently.
        public mutating func appendInterpolation(sqlite: String, postgres: String) {
            pieces.append(.dialects(sqlite: sqlite, postgres: postgres))
        }
    }

    /// `= ANY($n)` on PostgreSQL, bound to an array; `IN (SELECT value FROM json_each(:name))` on SQLite, bound to
    /// a JSON array: a list of any length as one bind, so the statement's text stays the same.
    public static func isAny(of name: String) -> SQLText {
        "\(sqlite: "IN (SELECT value FROM json_each(", postgres: "= ANY(")\(bind: name)\(sqlite: "))", postgres: ")")"
    }

    /// Fragments joined with a separator (`AND`, a comma).
    public static func joined(_ fragments: [SQLText], separator: String) -> SQLText {
        var result = SQLText(stringLiteral: "")
        result.pieces = []
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.pieces.append(.text(separator)) }
            result.pieces += fragment.pieces
        }
        return result
    }

    /// The text in a dialect and the names of its binds in placeholder order.
    ///
    /// SQLite writes every bind by name (`:viewer`), so one value serves each place it is used and GRDB binds
    /// them by name. PostgreSQL numbers them (`$1`, `$2`…) in the order each name first appears, with one
    /// exception: `viewer`, when there is one, is always `$1`, so a statement's binds start with the viewer, as
    /// the PostgreSQL adapter's own statements do.
    public func rendered(_ dialect: SQLDialect) -> RenderedSQL {
        var names: [String] = []
        if pieces.contains(where: { if case .bind(SQLText.viewer, _) = $0 { true } else { false } }) {
            names.append(SQLText.viewer)
        }
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let part): text += part
            case .dialects(let sqlite, let postgres): text += dialect == .sqlite ? sqlite : postgres
            case .bind(let name, let cast):
                switch dialect {
                case .sqlite:
                    if !names.contains(name) { names.append(name) }
                    text += ":\(name)"
                case .postgres:
                    let index: Int
                    if let found = names.firstIndex(of: name) {
                        index = found
                    } else {
                        names.append(name)
                        index = names.count - 1
                    }
                    text += "$\(index + 1)" + (cast.map { "::\($0)" } ?? "")
                }
            }
        }
        return RenderedSQL(text: text, binds: names)
    }

    /// The name of the signed-in viewer's bind, which visibility fragments use.
    public static let viewer = "viewer"

    public var description: String { rendered(.sqlite).text }
}

/// `SQLText` as one database reads it.
public struct RenderedSQL: Sendable, Hashable {
    /// The statement's text, placeholders written in the dialect's way.
    public let text: String
    /// The binds' names: for PostgreSQL, `binds[0]` is `$1`; for SQLite, every name the text uses.
    public let binds: [String]
}

/// A whole statement written once, rendered once for each database when first used.
///
/// ```swift
/// static let unmute = SQLStatement("DELETE FROM mutes WHERE muter_id = \(bind: "muter") AND muted_id = \(bind: "muted")")
/// // SQLite:     try db.execute(cached: GraphSQL.unmute.sqlite, arguments: ["muter": …, "muted": …])
/// // PostgreSQL: try PostgresQuery(GraphSQL.unmute.postgres, ["muter": PostgresBind(…), "muted": PostgresBind(…)])
/// ```
public struct SQLStatement: Sendable {
    /// SQLite's text; its arguments are named.
    public let sqlite: String
    /// PostgreSQL's text with its binds in placeholder order.
    public let postgres: RenderedSQL

    public init(_ sql: SQLText) {
        sqlite = sql.rendered(.sqlite).text
        postgres = sql.rendered(.postgres)
    }
}
