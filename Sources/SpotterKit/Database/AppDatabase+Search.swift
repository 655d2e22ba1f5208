import Foundation
import GRDB
import SpotterModels

/// Searches as last seen, so a search screen shows what a query found before, offline too, while it asks
/// again (issue 40, item 7). Kept per kind and query, the pages loaded so far with the cursor of the next;
/// the `keptSearches` most recent only.
extension AppDatabase {
    static let keptSearches = 50

    static func registerSearchMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("search results") { db in
            try db.execute(
                sql: """
                    CREATE TABLE search_results (key TEXT PRIMARY KEY, json TEXT NOT NULL, fetched_at REAL NOT NULL);
                    CREATE INDEX search_results_by_fetched_at ON search_results (fetched_at);
                    """)
        }
    }

    /// What the query found when last searched, with the pages loaded then; nil if never (or forgotten).
    func searchResults(_ query: String, kind: SearchKind) async throws -> SearchResults? {
        let json = try await writer.read { db in
            try String.fetchOne(
                db, sql: "SELECT json FROM search_results WHERE key = ?", arguments: [Self.searchKey(query, kind)])
        }
        return try json.map { try SpotterClient.decoder.decode(SearchResults.self, from: Data($0.utf8)) }
    }

    /// Keeps what the query found (all the pages loaded), and forgets the oldest searches past `keptSearches`.
    func save(_ results: SearchResults, for query: String, kind: SearchKind) async throws {
        let (json, now) = (try Self.json(results), self.now())
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO search_results (key, json, fetched_at) VALUES (?, ?, ?)",
                arguments: [Self.searchKey(query, kind), json, now.timeIntervalSince1970])
            try db.execute(
                sql: """
                    DELETE FROM search_results WHERE key NOT IN (
                        SELECT key FROM search_results ORDER BY fetched_at DESC LIMIT ?)
                    """, arguments: [Self.keptSearches])
        }
    }

    /// A query as kept: its kind, and its words as the server reads them (case and spacing aside).
    private static func searchKey(_ query: String, _ kind: SearchKind) -> String {
        kind.rawValue + ":" + query.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
