import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// Search on SQLite: FTS5 with the trigram tokenizer for names, unicode61 words for post text.
struct SQLiteSearchStore: SearchStore {
    let database: SQLiteDatabase
    let posts: SQLitePostStore

    func users(matching query: String, viewer: UserID?, limit: Int) async throws -> [AccountRecord] {
        let trigrams = SearchTerms.trigrams(query)
        let sql: String
        var arguments: StatementArguments = ["viewer": viewer?.description, "limit": limit]
        if trigrams.isEmpty {
            // Too short for trigrams: prefix match on the indexed username key and the display name.
            sql = """
                SELECT \(SQLiteAccountStore.columns) FROM users
                WHERE (username_key LIKE :prefix ESCAPE '\\' OR lower(display_name) LIKE :prefix ESCAPE '\\')
                  AND \(SQLitePostSQL.listable("users"))
                ORDER BY username_key LIMIT :limit
                """
            _ = arguments.append(contentsOf: ["prefix": SearchTerms.likePrefix(SearchTerms.name(query))])
        } else {
            // Any shared trigram makes a candidate; bm25 puts those sharing the most first.
            sql = """
                SELECT \(SQLiteAccountStore.columns) FROM users_fts JOIN users ON users.rowid = users_fts.rowid
                WHERE users_fts MATCH :match AND \(SQLitePostSQL.listable("users"))
                ORDER BY bm25(users_fts) LIMIT :limit
                """
            _ = arguments.append(contentsOf: ["match": trigrams.map(SearchTerms.fts5Quoted).joined(separator: " OR ")])
        }
        let bound = arguments
        return try await database.read { db in
            try Row.fetchAll(cached: db, sql: sql, arguments: bound).compactMap(SQLiteAccountStore.record)
        }
    }

    func users(withBio query: String, viewer: UserID?, limit: Int) async throws -> [AccountRecord] {
        let words = SearchTerms.words(query)
        guard !words.isEmpty else { return [] }
        let sql = """
            SELECT \(SQLiteAccountStore.columns) FROM users_bio_fts JOIN users ON users.rowid = users_bio_fts.rowid
            WHERE users_bio_fts MATCH :match AND \(SQLitePostSQL.listable("users"))
            ORDER BY users.created_at DESC LIMIT :limit
            """
        let arguments: StatementArguments = [
            "match": words.map { SearchTerms.fts5Quoted($0) + "*" }.joined(separator: " "),
            "viewer": viewer?.description, "limit": limit,
        ]
        return try await database.read { db in
            try Row.fetchAll(cached: db, sql: sql, arguments: arguments).compactMap(SQLiteAccountStore.record)
        }
    }

    /// The prefix as a range, which `post_tags`'s index reads.
    private static let tagsByPrefix = SQLStatement(
        SearchSQL.tags(where: "t.tag >= \(bind: "low") AND t.tag < \(bind: "high")"))

    func tags(prefix: String, viewer: UserID?, limit: Int) async throws -> [TagCount] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: Self.tagsByPrefix.sqlite,
                arguments: ["low": prefix, "high": prefix + "\u{FFFF}", "viewer": viewer?.description, "limit": limit]
            ).map { TagCount(tag: $0[0], postsCount: $0[1]) }
        }
    }

    func posts(matching query: String, viewer: UserID?, limit: Int) async throws -> [Post] {
        let words = SearchTerms.words(query)
        guard !words.isEmpty else { return [] }
        let match = words.map { SearchTerms.fts5Quoted($0) + "*" }.joined(separator: " ")
        let sql = """
            SELECT \(SQLitePostSQL.columns) FROM posts_fts
            JOIN posts p ON p.rowid = posts_fts.rowid JOIN users u ON u.id = p.author_id
            WHERE posts_fts MATCH :match AND \(SQLitePostSQL.listed) AND \(SQLitePostSQL.namesNoChild)
            ORDER BY p.id DESC LIMIT :limit
            """
        return try await posts.hydrate(
            sql: sql, arguments: ["match": match, "viewer": viewer?.description, "limit": limit], viewer: viewer)
    }
}
