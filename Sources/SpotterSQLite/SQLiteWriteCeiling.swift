import Foundation
import GRDB

/// The reference for write benchmarks: how many single-row transactions SQLite itself commits per second on
/// this machine, with no server in front of it.
///
/// The file is opened as `SQLiteStorage` opens its own (WAL, foreign keys, the same busy timeout and cache)
/// but with `synchronous = FULL`, each commit synced inside SQLite (the server syncs once per batch of commits
/// itself), and each transaction inserts one row shaped like a kudos (two text ids and a time,
/// a composite primary key and a second index), through a prepared statement, in a tight loop on one thread.
public enum SQLiteWriteCeiling {
    /// Commits single-row transactions into a new database at `path` for `duration`; returns commits per second.
    public static func measure(path: String, duration: Duration) throws -> Double {
        let pool = try DatabasePool(path: path, configuration: SQLiteStorage.configuration(syncsEachCommit: true))
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS kudos (
                        post_id TEXT NOT NULL, user_id TEXT NOT NULL, created_at REAL NOT NULL,
                        PRIMARY KEY (post_id, user_id));
                    CREATE INDEX IF NOT EXISTS kudos_by_user ON kudos(user_id, post_id);
                    """)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        var commits = 0
        while clock.now < deadline {
            // Checked every 100 commits: the clock read would otherwise be a visible share of a commit.
            for _ in 0..<100 {
                let post = UUID().uuidString
                let user = UUID().uuidString
                let at = Date().timeIntervalSince1970
                try pool.write { db in
                    try db.cachedStatement(sql: "INSERT INTO kudos (post_id, user_id, created_at) VALUES (?, ?, ?)")
                        .execute(arguments: [post, user, at])
                }
            }
            commits += 100
        }
        return Double(commits) / (clock.now - start).seconds
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
