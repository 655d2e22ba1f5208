import Foundation
import GRDB
import SpotterModels

/// The child profiles a guardian manages and those they are invited to manage, as last fetched, so the Parent
/// Zone shows them offline (issue 40, item 7). They are the person's, and go at sign-out.
extension AppDatabase {
    /// Which of the guardian's lists a kept child is in.
    enum ChildList: String {
        case mine
        case invited
    }

    static func registerChildMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("child profiles") { db in
            try db.execute(
                sql: """
                    CREATE TABLE kept_children (
                        list TEXT NOT NULL, id TEXT NOT NULL, position INTEGER NOT NULL, json TEXT NOT NULL,
                        PRIMARY KEY (list, id));
                    """)
        }
    }

    /// Keeps a list as fetched, in the server's order (it replaces what the list held).
    func save(_ children: [ChildProfile], as list: ChildList) async throws {
        try await replaceList("kept_children", list.rawValue, with: children) { $0.id.description }
    }

    func children(_ list: ChildList) async throws -> [ChildProfile] {
        try await keptList("kept_children", list.rawValue, as: ChildProfile.self)
    }
}
