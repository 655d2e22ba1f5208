import Foundation
import GRDB
import SpotterModels

/// Workout templates as last fetched, so composing from one works offline (issue 40, item 7): each list
/// (everyone's, or one author's) in the server's order, and each template by id.
extension AppDatabase {
    static func registerTemplateMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("workout templates") { db in
            try db.execute(
                sql: """
                    CREATE TABLE kept_templates (
                        list TEXT NOT NULL, id TEXT NOT NULL, position INTEGER NOT NULL, json TEXT NOT NULL,
                        PRIMARY KEY (list, id));
                    CREATE INDEX kept_templates_by_id ON kept_templates (id);
                    """)
        }
    }

    /// Keeps a list of templates as fetched (it replaces what the list held); `author` nil is everyone's.
    func save(_ templates: [WorkoutTemplate], author: String?) async throws {
        try await replaceList("kept_templates", Self.templateList(author), with: templates) { $0.id.description }
    }

    func templates(author: String?) async throws -> [WorkoutTemplate] {
        try await keptList("kept_templates", Self.templateList(author), as: WorkoutTemplate.self)
    }

    /// A kept template, from whichever list holds it.
    func template(_ id: WorkoutTemplateID) async throws -> WorkoutTemplate? {
        try await writer.read { db in
            try String.fetchOne(
                db, sql: "SELECT json FROM kept_templates WHERE id = ? LIMIT 1", arguments: [id.description]
            )
            .flatMap { try? Self.decode(WorkoutTemplate.self, $0) }
        }
    }

    private static func templateList(_ author: String?) -> String {
        author.map { "author:\($0.lowercased())" } ?? "all"
    }
}
