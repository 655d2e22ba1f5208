import Foundation
import GRDB
import SpotterCore
import SpotterNostr
import SpotterSQL

/// Filters (NIP-01, NIP-50) as SQL over `nostr_events e`, with Spotter's privacy decided in the same statement.
///
/// Every list a filter holds is bound as one JSON array (`json_each`), so a statement's text depends only on
/// which fields the filter has, and each shape is prepared once per connection however many values come.
enum SQLiteNostrQuery {
    /// A matching row: enough to order, merge and decode it.
    struct Found: Sendable {
        var createdAt: Int64
        var id: String
        var raw: String

        /// The relay's order: newest first, then lowest id.
        static func precedes(_ a: Found, _ b: Found) -> Bool {
            a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id < b.id
        }
    }

    /// The newest `min(limit, limitCap)` events of one filter the reader may see, in the relay's order.
    ///
    /// A filter with `authors` runs once per author, down that author's slice of `nostr_events_by_pubkey`
    /// (already in order), instead of gathering every event of every author and sorting them: "the newest 20
    /// of 100 people" then reads at most 20 entries per person. Once `limit` rows are in hand, later authors
    /// only look at events as new as the oldest of them (`:floor`), so most stop after a few entries.
    static func newest(_ filter: NostrFilter, reader: String?, limitCap: Int, _ db: Database) throws -> [Found] {
        let limit = filter.effectiveLimit(cap: limitCap)
        var conditions = Conditions(filter, prefix: "", perAuthor: filter.authors != nil && filter.ids == nil)
        conditions.arguments.updateValue(reader, forKey: SQLText.viewer)
        conditions.arguments["limit"] = limit
        let sql = NostrSQL.newest(conditions: "\(raw: conditions.sql)", limit: "\(bind: "limit")")
            .rendered(.sqlite).text
        guard conditions.perAuthor, let authors = filter.authors else {
            return try found(sql, conditions.arguments, db)
        }
        let since = filter.since ?? .min
        var newest: [Found] = []
        for author in Set(authors) {
            var arguments = conditions.arguments
            arguments["author"] = author.rawValue
            arguments["floor"] = newest.count == limit ? max(since, newest[limit - 1].createdAt) : since
            newest += try found(sql, arguments, db)
            newest.sort(by: Found.precedes)
            if newest.count > limit { newest.removeLast(newest.count - limit) }
        }
        return newest
    }

    private static func found(
        _ sql: String, _ arguments: [String: (any DatabaseValueConvertible)?], _ db: Database
    ) throws -> [Found] {
        try Row.fetchAll(cached: db, sql: sql, arguments: StatementArguments(arguments)).map {
            Found(createdAt: $0[0], id: $0[1], raw: $0[2])
        }
    }

    /// How many events the filters match together that the reader may see, each counted once.
    static func count(
        _ filters: [NostrFilter], reader: String?
    ) -> (sql: String, arguments: StatementArguments) {
        var arguments: [String: (any DatabaseValueConvertible)?] = [SQLText.viewer: reader]
        let parts = filters.enumerated().map { index, filter -> SQLText in
            let conditions = Conditions(filter, prefix: "f\(index)_", perAuthor: false)
            arguments.merge(conditions.arguments) { $1 }
            return "\(raw: conditions.sql)"
        }
        return (NostrSQL.count(conditions: parts).rendered(.sqlite).text, StatementArguments(arguments))
    }

    /// One filter's conditions, their values bound under names starting with `prefix`.
    struct Conditions {
        var sql: String
        var arguments: [String: (any DatabaseValueConvertible)?] = [:]
        /// Whether the statement is run once per author, with `:author` and `:floor` bound each time.
        var perAuthor: Bool

        init(_ filter: NostrFilter, prefix p: String, perAuthor: Bool) {
            self.perAuthor = perAuthor
            var parts: [String] = []
            if let ids = filter.ids {
                parts.append("e.id IN (SELECT value FROM json_each(:\(p)ids))")
                arguments["\(p)ids"] = jsonArray(ids.map(\.rawValue))
            }
            if perAuthor {
                // `since` is folded into the floor, so the index range starts there.
                parts.append("e.pubkey = :author AND e.created_at >= :floor")
            } else if let authors = filter.authors {
                parts.append("e.pubkey IN (SELECT value FROM json_each(:\(p)authors))")
                arguments["\(p)authors"] = jsonArray(authors.map(\.rawValue))
            }
            if let kinds = filter.kinds {
                parts.append("e.kind IN (SELECT value FROM json_each(:\(p)kinds))")
                arguments["\(p)kinds"] = "[" + kinds.map { String($0.rawValue) }.joined(separator: ",") + "]"
            }
            if let since = filter.since, !perAuthor {
                parts.append("e.created_at >= :\(p)since")
                arguments["\(p)since"] = since
            }
            if let until = filter.until {
                parts.append("e.created_at <= :\(p)until")
                arguments["\(p)until"] = until
            }
            for (index, (name, values)) in filter.tags.sorted(by: { $0.key < $1.key }).enumerated() {
                parts.append(
                    """
                    e.seq IN (SELECT t.event_seq FROM nostr_tags t
                              WHERE t.name = :\(p)tag\(index) AND t.value IN (SELECT value FROM json_each(:\(p)values\(index))))
                    """)
                arguments["\(p)tag\(index)"] = name
                arguments["\(p)values\(index)"] = jsonArray(values)
            }
            let words = filter.searchWords
            if !words.isEmpty {
                parts.append(
                    "e.seq IN (SELECT rowid FROM nostr_events_fts WHERE nostr_events_fts MATCH :\(p)search)")
                arguments["\(p)search"] = words.map { SearchTerms.fts5Quoted($0) + "*" }.joined(separator: " ")
            }
            sql = parts.isEmpty ? "1" : parts.joined(separator: " AND ")
        }
    }

    /// Strings as a JSON array, for `json_each`.
    static func jsonArray(_ values: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
