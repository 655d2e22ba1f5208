import Foundation
import GRDB

/// The length and head of every encrypted-group chain this device verified (issue 40, item 11), so the check
/// that a server never rewrites a chain's history holds across launches, not only within one
/// (docs/encryption.md, "Devices").
extension AppDatabase {
    static func registerSeenChainMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("seen chains") { db in
            try db.execute(
                sql: "CREATE TABLE seen_chains (chain TEXT PRIMARY KEY, length INTEGER NOT NULL, head TEXT NOT NULL)")
        }
    }

    func seenChainHeads() async throws -> [String: (length: Int, head: String)] {
        try await writer.read { db in
            var heads: [String: (length: Int, head: String)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT chain, length, head FROM seen_chains") {
                heads[row["chain"]] = (row["length"], row["head"])
            }
            return heads
        }
    }

    func saveSeenChainHead(_ chain: String, length: Int, head: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO seen_chains (chain, length, head) VALUES (?, ?, ?)
                    ON CONFLICT (chain) DO UPDATE SET length = excluded.length, head = excluded.head
                    """,
                arguments: [chain, length, head])
        }
    }
}
