import Foundation
import GRDB
import SpotterModels

/// A post's comments as last seen, so its screen shows them at once, offline too, while they are fetched again
/// (issue 40, item 7): the pages loaded, in the server's order, with the cursor of the next. They go with their
/// post at the clean-up, and with the person at sign-out.
extension AppDatabase {
    static func registerCommentMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("comments") { db in
            try db.execute(
                sql: """
                    CREATE TABLE comments (
                        post_id TEXT NOT NULL, id TEXT NOT NULL, position INTEGER NOT NULL, json TEXT NOT NULL,
                        PRIMARY KEY (post_id, id));
                    CREATE TABLE comment_fetches (
                        post_id TEXT PRIMARY KEY, next_cursor TEXT, fetched_at REAL NOT NULL);
                    """)
        }
    }

    /// The comments kept for a post and the cursor of those that follow; nil if they were never fetched.
    func comments(on post: PostID) async throws -> (comments: [Comment], nextCursor: String?)? {
        try await writer.read { db in
            guard
                let fetch = try Row.fetchOne(
                    db, sql: "SELECT next_cursor FROM comment_fetches WHERE post_id = ?",
                    arguments: [post.description])
            else { return nil }
            let comments = try String.fetchAll(
                db, sql: "SELECT json FROM comments WHERE post_id = ? ORDER BY position",
                arguments: [post.description]
            ).compactMap { try? Self.decode(Comment.self, $0) }
            return (comments, fetch[0])
        }
    }

    /// Keeps comments fetched for a post: the first pages replace what was kept (`replacing`), a later page
    /// goes after it.
    func save(_ comments: [Comment], nextCursor: String?, on post: PostID, replacing: Bool) async throws {
        let rows = try comments.map { ($0.id.description, try Self.json($0)) }
        let now = self.now()
        try await writer.write { db in
            if replacing {
                try db.execute(sql: "DELETE FROM comments WHERE post_id = ?", arguments: [post.description])
            }
            let start =
                (try Int.fetchOne(
                    db, sql: "SELECT MAX(position) FROM comments WHERE post_id = ?", arguments: [post.description])
                    ?? -1) + 1
            for (offset, (id, json)) in rows.enumerated() {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO comments (post_id, id, position, json) VALUES (?, ?, ?, ?)",
                    arguments: [post.description, id, start + offset, json])
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO comment_fetches (post_id, next_cursor, fetched_at) VALUES (?, ?, ?)",
                arguments: [post.description, nextCursor, now.timeIntervalSince1970])
        }
    }

    /// Inside the clean-up: comments whose post is no longer kept go with it.
    static func cleanUpComments(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM comments WHERE post_id NOT IN (SELECT id FROM posts);
                DELETE FROM comment_fetches WHERE post_id NOT IN (SELECT id FROM posts);
                """)
    }
}
