import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// Search on PostgreSQL: pg_trgm similarity for names, `to_tsvector('simple', …)` for post text, both
/// behind GIN indexes.
struct PostgresSearchStore: SearchStore {
    let database: PostgresDatabase
    let logger: Logger
    let posts: PostgresPostStore

    private static let searchable = "(users.username_key || ' ' || lower(users.display_name))"

    func users(matching query: String, viewer: UserID?, limit: Int) async throws -> [AccountRecord] {
        let name = SearchTerms.name(query)
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        let q = try builder.bind(name)
        let prefix = try builder.bind(SearchTerms.likePrefix(name))
        let sql = """
            SELECT \(PostgresAccountStore.columns) FROM users
            WHERE (\(Self.searchable) % \(q) OR \(q) <% \(Self.searchable)
                   OR users.username_key LIKE \(prefix) OR lower(users.display_name) LIKE \(prefix))
              AND \(PostgresPostSQL.listable("users"))
            ORDER BY word_similarity(\(q), \(Self.searchable)) DESC, users.username_key
            LIMIT \(try builder.bind(limit))
            """
        let query = builder.query(sql)
        return try await database.withTransaction(logger: logger) { connection in
            // pg_trgm's default thresholds (0.3 / 0.6) miss a swapped pair of letters in a short name; the
            // lower ones let the index return such candidates, and NameMatch then ranks and trims them.
            try await connection.query("SET LOCAL pg_trgm.similarity_threshold = 0.2", logger: logger)
            try await connection.query("SET LOCAL pg_trgm.word_similarity_threshold = 0.3", logger: logger)
            var accounts: [AccountRecord] = []
            for try await row in try await connection.query(query, logger: logger) {
                accounts.append(try PostgresAccountStore.record(row.makeRandomAccess(), offset: 0))
            }
            return accounts
        }
    }

    func users(withBio query: String, viewer: UserID?, limit: Int) async throws -> [AccountRecord] {
        let words = SearchTerms.words(query)
        guard !words.isEmpty else { return [] }
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        // Words are letters and digits only (SearchTerms.words), so `word:*` is always valid tsquery syntax.
        let prefixQuery = try builder.bind(words.map { "\($0):*" }.joined(separator: " & "))
        let sql = """
            SELECT \(PostgresAccountStore.columns) FROM users
            WHERE to_tsvector('simple', users.bio) @@ to_tsquery('simple', \(prefixQuery))
              AND \(PostgresPostSQL.listable("users"))
            ORDER BY users.created_at DESC LIMIT \(try builder.bind(limit))
            """
        var accounts: [AccountRecord] = []
        for try await row in try await database.query(builder.query(sql), logger: logger) {
            accounts.append(try PostgresAccountStore.record(row.makeRandomAccess(), offset: 0))
        }
        return accounts
    }

    private static let tagsByPrefix = SQLStatement(SearchSQL.tags(where: "t.tag LIKE \(bind: "prefix")"))

    func tags(prefix: String, viewer: UserID?, limit: Int) async throws -> [TagCount] {
        let query = try PostgresQuery(
            Self.tagsByPrefix.postgres,
            [
                SQLText.viewer: PostgresBind(viewer?.rawValue),
                "prefix": PostgresBind(SearchTerms.likePrefix(prefix)), "limit": PostgresBind(limit),
            ])
        var tags: [TagCount] = []
        for try await (tag, count) in try await database.query(query, logger: logger).decode(
            (String, Int).self)
        {
            tags.append(TagCount(tag: tag, postsCount: count))
        }
        return tags
    }

    func posts(matching query: String, viewer: UserID?, limit: Int) async throws -> [Post] {
        let words = SearchTerms.words(query)
        guard !words.isEmpty else { return [] }
        // Words are letters and digits only (SearchTerms.words), so `word:*` is always valid tsquery syntax.
        let prefixQuery = words.map { "\($0):*" }.joined(separator: " & ")
        var builder = PostgresPostSQL.Builder(viewer: viewer?.rawValue)
        let sql = """
            SELECT \(PostgresPostSQL.columns) FROM posts p JOIN users u ON u.id = p.author_id
            WHERE to_tsvector('simple', post_search_text(p.text, p.workout))
                  @@ to_tsquery('simple', \(try builder.bind(prefixQuery)))
              AND \(PostgresPostSQL.listed) AND \(PostgresPostSQL.namesNoChild)
            ORDER BY p.id DESC LIMIT \(try builder.bind(limit))
            """
        return try await posts.hydrate(builder.query(sql), viewer: viewer)
    }
}
