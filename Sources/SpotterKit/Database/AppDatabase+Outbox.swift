import Foundation
import GRDB
import SpotterModels

/// The outbox's table: actions waiting to reach the server, oldest first.
extension AppDatabase {
    /// Stores the action with a new idempotency key (committed before this returns).
    func enqueue(_ action: Action, at now: Date = Date()) async throws -> QueuedAction {
        try await writer.write { db in try Self.insert(action, at: now, db) }
    }

    /// Gives or takes back kudos the offline-first way, in one transaction: the cached post (if kept) shows
    /// the new state, and the action waits in the outbox. Every screen observing the post shows it at once.
    func setKudos(_ given: Bool, on post: PostID, at now: Date = Date()) async throws -> QueuedAction {
        try await writer.write { db in
            try Self.updatePost(post, db) { Self.apply(kudos: given, to: &$0) }
            return try Self.insert(.setKudos(post, given: given), at: now, db)
        }
    }

    /// Actions still to send (`failed: false`) or given up on (`failed: true`), oldest first.
    func actions(failed: Bool) async throws -> [QueuedAction] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, action, idempotency_key, attempts, failure, created_at FROM actions
                    WHERE (failure IS NOT NULL) = ? ORDER BY id
                    """, arguments: [failed]
            )
            .compactMap { row -> QueuedAction? in
                guard let action = try? SpotterClient.decoder.decode(Action.self, from: Data((row[1] as String).utf8))
                else { return nil }
                return QueuedAction(
                    id: row[0], action: action, idempotencyKey: row[2], attempts: row[3], failure: row[4],
                    createdAt: Date(timeIntervalSince1970: row[5]))
            }
        }
    }

    /// The action reached the server: it leaves the queue, and the post shows the server's count of kudos
    /// (unless later kudos on it still wait, which would be shown again).
    func landed(_ queued: QueuedAction, kudos: KudosState?) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM actions WHERE id = ?", arguments: [queued.id])
            if let kudos {
                try Self.updatePost(kudos.postID, db) { post in
                    post.kudosCount = kudos.kudosCount
                    post.kudosedByMe = kudos.kudosedByMe
                }
                try Self.reapplyPendingKudos(on: kudos.postID, db)
            }
        }
    }

    /// Takes a refused action out of the queue and undoes what it showed (kudos on the cached post).
    func revert(_ queued: QueuedAction) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM actions WHERE id = ?", arguments: [queued.id])
            if case .setKudos(let post, let given) = queued.action {
                try Self.updatePost(post, db) { Self.apply(kudos: !given, to: &$0) }
            }
        }
    }

    func deleteAction(_ id: Int64) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM actions WHERE id = ?", arguments: [id]) }
    }

    func retryAction(_ id: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE actions SET failure = NULL, attempts = 0 WHERE id = ?", arguments: [id])
        }
    }

    func markFailed(_ id: Int64, _ reason: String, attempts: Int? = nil) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE actions SET failure = ?, attempts = COALESCE(?, attempts) WHERE id = ?",
                arguments: [reason, attempts, id])
        }
    }

    func countAttempt(_ id: Int64, _ attempts: Int) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE actions SET attempts = ? WHERE id = ?", arguments: [attempts, id])
        }
    }

    private static func insert(_ action: Action, at now: Date, _ db: Database) throws -> QueuedAction {
        let key = SpotterClient.newKey()
        let text = String(decoding: try SpotterClient.encoder.encode(action), as: UTF8.self)
        try db.execute(
            sql: "INSERT INTO actions (entity, action, idempotency_key, created_at) VALUES (?, ?, ?, ?)",
            arguments: [action.entity, text, key, now.timeIntervalSince1970])
        return QueuedAction(
            id: db.lastInsertedRowID, action: action, idempotencyKey: key, attempts: 0, failure: nil, createdAt: now)
    }

    /// Kudos still waiting to be sent on a post, re-applied to its cached copy after the server's copy (or
    /// the server's count) replaced it, so what the user did stays shown until it lands.
    static func reapplyPendingKudos(on post: PostID, _ db: Database) throws {
        let waiting = try String.fetchAll(
            db, sql: "SELECT action FROM actions WHERE entity = ? AND failure IS NULL ORDER BY id",
            arguments: [Action.setKudos(post, given: true).entity])
        let last = waiting.compactMap { json -> Bool? in
            guard case .setKudos(_, let given) = try? SpotterClient.decoder.decode(Action.self, from: Data(json.utf8))
            else { return nil }
            return given
        }.last
        guard let given = last else { return }
        try updatePost(post, db) { apply(kudos: given, to: &$0) }
    }

    /// Shows kudos given or taken back on a post, once.
    static func apply(kudos given: Bool, to post: inout Post) {
        guard post.kudosedByMe != given else { return }
        post.kudosedByMe = given
        post.kudosCount = max(0, post.kudosCount + (given ? 1 : -1))
    }
}
