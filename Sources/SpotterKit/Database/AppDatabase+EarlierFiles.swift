import Foundation
import GRDB

/// The separate files of SpotterKit before issue 23 (`outbox.sqlite`, `cache.sqlite`, `analytics.sqlite` in
/// the session's folder), taken over by the one database.
extension AppDatabase {
    /// Moves what earlier files kept into this database and deletes them: actions still queued (with their
    /// idempotency keys, so a replay still lands once; those given up for the network wait again) and analytics
    /// events not yet sent. The cache is dropped; the network fills it again. A file that cannot be read is left
    /// where it is.
    ///
    /// One caveat: an analytics batch whose answer was lost just before the update goes out again under a
    /// new key, so the server may count it twice.
    func takeOverEarlierFiles(in folder: URL) {
        let copies = [
            (
                "outbox.sqlite",
                """
                INSERT OR IGNORE INTO actions (entity, action, idempotency_key, attempts, failure, created_at)
                SELECT entity, action, idempotency_key, attempts, failure, created_at FROM earlier.actions ORDER BY id
                """
            ),
            ("analytics.sqlite", "INSERT INTO events (json) SELECT json FROM earlier.events ORDER BY id"),
            ("cache.sqlite", nil),
        ]
        for (name, copy) in copies {
            let path = folder.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            if let copy {
                do {
                    try writer.writeWithoutTransaction { db in
                        try db.execute(sql: "ATTACH DATABASE ? AS earlier", arguments: [path])
                        defer { try? db.execute(sql: "DETACH DATABASE earlier") }
                        try db.inTransaction {
                            try db.execute(sql: copy)
                            try Self.requeueGivenUp(db)  // what an earlier version gave up on waits again
                            return .commit
                        }
                    }
                } catch {
                    continue
                }
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
}
