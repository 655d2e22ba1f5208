import Foundation
import GRDB
import SpotterModels

/// The epoch keys of encrypted groups as the server delivered them, wrapped to this device's HPKE key (only
/// its private key, in the device key store, opens them), so a cold start without a network still opens the
/// sealed posts kept in the feeds (issue 40, item 7). Nothing here is readable without that key.
extension AppDatabase {
    static func registerEpochKeyMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("wrapped epoch keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE wrapped_epoch_keys (
                        group_id TEXT NOT NULL, device_id TEXT NOT NULL, epoch INTEGER NOT NULL, key TEXT NOT NULL,
                        PRIMARY KEY (group_id, device_id, epoch));
                    """)
        }
    }

    func saveWrappedEpochKeys(_ keys: [WrappedEpochKey], group: GroupID, device: String) async throws {
        try await writer.write { db in
            for wrapped in keys {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO wrapped_epoch_keys (group_id, device_id, epoch, key) VALUES (?, ?, ?, ?)
                        """,
                    arguments: [group.description, device, wrapped.epoch, wrapped.key])
            }
        }
    }

    func wrappedEpochKeys(group: GroupID, device: String) async throws -> [WrappedEpochKey] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT epoch, key FROM wrapped_epoch_keys WHERE group_id = ? AND device_id = ? ORDER BY epoch",
                arguments: [group.description, device]
            ).map { WrappedEpochKey(epoch: $0[0], key: $0[1]) }
        }
    }
}
