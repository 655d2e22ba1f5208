import Foundation
import PostgresNIO
import SpotterCore
import SpotterNostr
import SpotterSQL

/// Filters (NIP-01, NIP-50) as SQL over `nostr_events e`, with Spotter's privacy decided in the same statement
/// (see the SQLite twin). The reader is bind `$1` (`PostgresPostSQL.Builder`'s viewer), NULL for nobody.
enum PostgresNostrQuery {
    /// The newest `min(limit, limitCap)` events of one filter the reader may see, in the relay's order.
    ///
    /// A filter with `authors` reads each author's newest events from `nostr_events_by_pubkey`, at most
    /// `limit` each (a `LATERAL` join over the authors), and keeps the newest of those: "the newest 20 of 100
    /// people" reads at most 2,000 index entries however many events those people have, where one scan of
    /// all their events would read and sort every one of them.
    static func newest(_ filter: NostrFilter, reader: UUID?, limitCap: Int) throws -> PostgresQuery {
        var builder = PostgresPostSQL.Builder(viewer: reader)
        let perAuthor = filter.authors != nil && filter.ids == nil
        let conditions = try self.conditions(filter, perAuthor: perAuthor, &builder)
        let limit = try builder.bind(filter.effectiveLimit(cap: limitCap))
        guard perAuthor, let authors = filter.authors else {
            return builder.query(
                NostrSQL.newest(conditions: "\(raw: conditions)", limit: "\(raw: limit)").rendered(.postgres).text)
        }
        let authorList = try builder.bind(Array(Set(authors.map(\.rawValue))))
        return builder.query(
            """
            SELECT x.created_at, x.id, x.raw FROM unnest(\(authorList)::text[]) AS a(pubkey)
            CROSS JOIN LATERAL (
                \(NostrSQL.newest(conditions: "e.pubkey = a.pubkey AND \(raw: conditions)", limit: "\(raw: limit)")
                    .rendered(.postgres).text)
            ) x
            ORDER BY x.created_at DESC, x.id LIMIT \(limit)
            """)
    }

    /// How many events the filters match together that the reader may see, each counted once.
    static func count(_ filters: [NostrFilter], reader: UUID?) throws -> PostgresQuery {
        var builder = PostgresPostSQL.Builder(viewer: reader)
        let parts = try filters.map { filter -> SQLText in
            "\(raw: try conditions(filter, perAuthor: false, &builder))"
        }
        return builder.query(NostrSQL.count(conditions: parts).rendered(.postgres).text)
    }

    /// One filter's conditions; with `perAuthor`, the author is `a.pubkey` of the enclosing query.
    private static func conditions(
        _ filter: NostrFilter, perAuthor: Bool, _ builder: inout PostgresPostSQL.Builder
    ) throws -> String {
        var parts: [String] = []
        if let ids = filter.ids {
            parts.append("e.id = ANY(\(try builder.bind(ids.map(\.rawValue)))::text[])")
        }
        if let authors = filter.authors, !perAuthor {
            parts.append("e.pubkey = ANY(\(try builder.bind(authors.map(\.rawValue)))::text[])")
        }
        if let kinds = filter.kinds {
            parts.append("e.kind = ANY(\(try builder.bind(kinds.map { Int32($0.rawValue) }))::integer[])")
        }
        if let since = filter.since { parts.append("e.created_at >= \(try builder.bind(since))") }
        if let until = filter.until { parts.append("e.created_at <= \(try builder.bind(until))") }
        for (name, values) in filter.tags.sorted(by: { $0.key < $1.key }) {
            parts.append(
                """
                e.seq IN (SELECT t.event_seq FROM nostr_tags t
                          WHERE t.name = \(try builder.bind(name)) AND t.value = ANY(\(try builder.bind(values))::text[]))
                """)
        }
        let words = filter.searchWords
        if !words.isEmpty {
            // Words are letters and digits only (SearchTerms.words), so `word:*` is always valid tsquery syntax.
            let prefixQuery = try builder.bind(words.map { "\($0):*" }.joined(separator: " & "))
            parts.append("to_tsvector('simple', e.content) @@ to_tsquery('simple', \(prefixQuery))")
        }
        return parts.isEmpty ? "true" : parts.joined(separator: " AND ")
    }
}
