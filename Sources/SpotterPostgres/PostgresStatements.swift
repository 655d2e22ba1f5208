import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels
import Synchronization

// Queries every request runs, as prepared statements: PostgresNIO sends other queries unnamed, and
// PostgreSQL parses and plans an unnamed query on every run. A prepared statement is parsed once per
// connection, and after five runs PostgreSQL keeps a generic plan when it costs no more than the custom ones
// did: planning the Following feed afresh took longer than running it. `FeedRowsShape` says what that takes
// for a feed page.

/// A token and its account: every authenticated request's first read (`TokenStore.findWithAccount`).
struct TokenWithAccountStatement: PostgresPreparedStatement {
    // Named here: PostgresNIO's default name is the type's name, written out afresh on every run.
    static let name = "token-with-account"
    static let sql = """
        SELECT t.hash, t.user_id, t.family, t.kind, t.created_at, t.expires_at, t.used_at, t.revoked_at,
               users.id IS NOT NULL, \(PostgresAccountStore.columns)
        FROM tokens t LEFT JOIN users ON users.id = t.user_id WHERE t.hash = $1
        """
    typealias Row = PostgresRandomAccessRow

    let hash: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(hash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { row.makeRandomAccess() }
}

/// The first three people to give kudos to each of a page's posts, as the viewer may see them.
struct KudosPreviewStatement: PostgresPreparedStatement {
    static let name = "kudos-preview"
    // From the front of kudos_in_order: a post's cost stays the same however many kudos it has.
    // Givers are checked against one set of `unlisted` people for the page (see the SQLite twin).
    static let sql = """
        SELECT p.id, u.id, u.username, u.display_name, u.avatar_url
        FROM unnest($2::uuid[]) AS p(id)
        CROSS JOIN LATERAL (
          SELECT f.user_id, f.created_at FROM kudos f
          WHERE f.post_id = p.id AND f.user_id NOT IN (\(PostgresPostSQL.unlisted))
          ORDER BY f.created_at, f.user_id LIMIT 3
        ) k
        JOIN users u ON u.id = k.user_id
        ORDER BY p.id, k.created_at, k.user_id
        """
    typealias Row = (UUID, UUID, String, String, String?)

    let viewer: UUID?
    let posts: [UUID]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(viewer)
        bindings.append(posts)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// One page of a feed (`PostStore.feed`), one prepared statement per source, cursor and page size: sent
/// unnamed, the Following feed was planned afresh every time, and planning took longer than running it.
struct FeedPageStatement<Source: FeedSourceShape, Cursor: FeedCursorShape, Rows: FeedRowsShape>:
    PostgresPreparedStatement
{
    /// Short and distinct per shape: PostgreSQL cuts names at 63 bytes, and the default (the full generic type
    /// name) would make every Following shape the same statement.
    static var name: String {
        StatementText.remembered(.name, of: Self.self) {
            "feed.\(Source.self).\(Cursor.self).\(Rows.rows.map(String.init) ?? "n")"
        }
    }

    static var sql: String { StatementText.remembered(.sql, of: Self.self, written) }

    private static func written() -> String {
        // Binds: $1 the viewer, then the source's value if it has one, then the cursor if any, then the limit.
        var next = 1
        let clauses = [Source.visibility] + Source.clauses + [Cursor.clause("p")].compactMap { $0 }
        var sql = """
            SELECT \(PostgresPostSQL.columns) FROM \(Source.from(Cursor.self)) JOIN users u ON u.id = p.author_id
            WHERE \(clauses.joined(separator: "\nAND "))
            ORDER BY p.id \(Cursor.order) LIMIT \(Rows.rows.map(String.init) ?? "$LIMIT")
            """
        for (placeholder, used) in [
            ("$SOURCE", Source.bindsValue), ("$CURSOR", Cursor.comparison != nil), ("$LIMIT", Rows.rows == nil),
        ]
        where used {
            next += 1
            sql = sql.replacingOccurrences(of: placeholder, with: "$\(next)")
        }
        return sql
    }
    typealias Row = PostgresRandomAccessRow

    let viewer: UUID?
    let sourceValue: (any PostgresThrowingDynamicTypeEncodable & Sendable)?
    let cursor: UUID?
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(viewer)
        if let sourceValue { try bindings.append(sourceValue) }
        if let cursor { bindings.append(cursor) }
        if Rows.rows == nil { bindings.append(limit) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { row.makeRandomAccess() }
}

/// What a feed source adds to the page query; `$SOURCE` stands for its bound value.
protocol FeedSourceShape: Sendable {
    /// What the page reads as `p`: the posts table, unless the source narrows it first.
    static func from(_ cursor: any FeedCursorShape.Type) -> String
    /// Which posts it shows the viewer: those listed for them (`PostgresPostSQL.listed`), unless it is a
    /// group's own feed, which shows whoever may read them its posts.
    static var visibility: String { get }
    static var clauses: [String] { get }
    static var bindsValue: Bool { get }
    /// Whether one plan suits every viewer and value, so PostgreSQL may keep a generic plan (see
    /// `FeedRowsShape`). Not for a tag: a rare one is best read from its own rows, a common one by walking
    /// the newest posts, and only a custom plan sees which it is.
    static var planFitsAll: Bool { get }
}

extension FeedSourceShape {
    static func from(_ cursor: any FeedCursorShape.Type) -> String { "posts p" }
    static var visibility: String { PostgresPostSQL.listed }
}

/// How many rows a page statement returns: a literal LIMIT, or `$n` bound per run.
///
/// PostgreSQL costs `LIMIT $n` as a tenth of all the rows the query could return, so the generic plan of a
/// Following page looked far dearer than its custom plans and PostgreSQL planned every request afresh, which
/// took longer than the query ran. With the LIMIT written into the statement the generic plan is costed like
/// the custom ones and kept, and planning all but disappears. Pages come in two sizes, the default and the
/// largest; a smaller page takes the default's rows and keeps its first, still cheaper than planning it.
protocol FeedRowsShape: Sendable {
    static var rows: Int? { get }
}

enum DefaultPageRows: FeedRowsShape {
    static let rows: Int? = PageRequest.defaultLimit + 1
}

enum LargestPageRows: FeedRowsShape {
    static let rows: Int? = PageRequest.maxLimit + 1
}

/// `LIMIT $n`, for sources whose plan depends on what is bound, and for pages larger than any the API serves.
enum BoundRows: FeedRowsShape {
    static let rows: Int? = nil
}

/// The statement for a page of `limit` rows (see `FeedRowsShape`).
func feedRows(for limit: Int, planFitsAll: Bool) -> any FeedRowsShape.Type {
    guard planFitsAll else { return BoundRows.self }
    if let rows = DefaultPageRows.rows, limit <= rows { return DefaultPageRows.self }
    if let rows = LargestPageRows.rows, limit <= rows { return LargestPageRows.self }
    return BoundRows.self
}

enum CommunityFeedShape: FeedSourceShape {
    static let clauses = ["p.visibility = 'public'", PostgresPostSQL.notMuted]
    static let bindsValue = false
    static let planFitsAll = true
}

enum GlobalFeedShape: FeedSourceShape {
    static let clauses = ["p.in_global AND p.visibility = 'public'", PostgresPostSQL.notMuted]
    static let bindsValue = false
    static let planFitsAll = true
}

enum TagFeedShape: FeedSourceShape {
    static let clauses = [
        "p.id IN (SELECT post_id FROM post_tags WHERE tag = $SOURCE::text)", PostgresPostSQL.notMuted,
        PostgresPostSQL.namesNoChild,
    ]
    static let bindsValue = true
    static let planFitsAll = false
}

enum AuthorFeedShape: FeedSourceShape {
    static let clauses = ["p.author_id = $SOURCE::uuid"]
    static let bindsValue = true
    static let planFitsAll = true
}

/// A group's feed, newest first from `posts_by_group`.
enum GroupFeedShape: FeedSourceShape {
    static let visibility = PostgresPostSQL.visible
    static let clauses = ["p.group_id = $SOURCE::uuid"]
    static let bindsValue = true
    static let planFitsAll = true
}

/// Where a page starts; `$CURSOR` stands for the post id it starts after or before.
protocol FeedCursorShape: Sendable {
    /// How a post's id compares with the cursor, or `nil` for no cursor.
    static var comparison: String? { get }
    static var order: String { get }
}

extension FeedCursorShape {
    /// The cursor's condition on the posts aliased `alias`.
    static func clause(_ alias: String) -> String? { comparison.map { "\(alias).id \($0) $CURSOR::uuid" } }
}

enum FirstPageShape: FeedCursorShape {
    static let comparison: String? = nil
    static let order = "DESC"
}

enum BeforeCursorShape: FeedCursorShape {
    static let comparison: String? = "<"
    static let order = "DESC"
}

enum AfterCursorShape: FeedCursorShape {
    static let comparison: String? = ">"
    static let order = "ASC"
}

/// Oldest first with no cursor: given posts (`GivenPostsShape`) already lie after one.
enum OldestFirstShape: FeedCursorShape {
    static let comparison: String? = nil
    static let order = "ASC"
}

/// The names and texts of generic statements, each written once per statement type. PostgresNIO reads both on
/// every run, and Swift keeps no stored statics in generic types, so without this every run would write a feed
/// page's text (a few kilobytes, its placeholders replaced) afresh.
enum StatementText {
    enum Part: Hashable {
        case name, sql
    }

    private struct Key: Hashable {
        let statement: ObjectIdentifier
        let part: Part
    }

    private static let written = Mutex<[Key: String]>([:])

    static func remembered(_ part: Part, of statement: Any.Type, _ write: () -> String) -> String {
        let key = Key(statement: ObjectIdentifier(statement), part: part)
        if let text = written.withLock({ $0[key] }) { return text }
        let text = write()
        written.withLock { $0[key] = text }
        return text
    }
}
