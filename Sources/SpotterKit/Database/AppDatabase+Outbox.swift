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

    /// Edits one's own post the offline-first way, in one transaction: the cached post (if kept) shows the new
    /// text, audience and workout, marked edited, and the edit waits in the outbox.
    func editPost(_ post: PostID, _ request: UpdatePostRequest, at now: Date = Date()) async throws -> QueuedAction {
        try await writer.write { db in
            try Self.updatePost(post, db) { cached in
                if let text = request.text { cached.text = text }
                if let visibility = request.visibility { cached.visibility = visibility }
                if let workout = request.workout { cached.workout = workout }
                cached.editedAt = now
            }
            return try Self.insert(.updatePost(post, request), at: now, db)
        }
    }

    /// Actions still to send (`failed: false`) or given up on (`failed: true`), oldest first.
    func actions(failed: Bool) async throws -> [QueuedAction] {
        try await writer.read { db in try Self.actions(db, where: "(failure IS NOT NULL) = ?", [failed]) }
    }

    /// The queued actions matching `condition`, oldest first; one that no longer decodes is left out.
    static func actions(
        _ db: Database, where condition: String, _ arguments: StatementArguments
    ) throws -> [QueuedAction] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, action, idempotency_key, attempts, failure, created_at,
                    last_error_kind, last_error, next_attempt_at
                FROM actions WHERE \(condition) ORDER BY id
                """, arguments: arguments
        )
        .compactMap { row -> QueuedAction? in
            guard let action = try? SpotterClient.decoder.decode(Action.self, from: Data((row[1] as String).utf8))
            else { return nil }
            var retry: PendingRetry?
            if let kind = PendingRetry.Reason(rawValue: row[6] ?? ""), let detail: String = row[7],
                let next: Double = row[8]
            {
                retry = PendingRetry(reason: kind, detail: detail, nextAttempt: Date(timeIntervalSince1970: next))
            }
            return QueuedAction(
                id: row[0], action: action, idempotencyKey: row[2], attempts: row[3], failure: row[4],
                retry: retry, createdAt: Date(timeIntervalSince1970: row[5]))
        }
    }

    /// The action reached the server: it leaves the queue, and the post shows the server's count of kudos
    /// (unless later kudos on it still wait, which would be shown again); a post it made goes on top of the
    /// feeds it belongs to in the same transaction, so no screen shows it twice or not at all in between.
    func landed(_ queued: QueuedAction, kudos: KudosState?, post: Post? = nil) async throws {
        let posted = try post.map { ($0, try Self.json($0)) }
        let (now, policy) = (self.now(), self.policy)
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM actions WHERE id = ?", arguments: [queued.id])
            if let posted { try Self.placePosted(posted.0, json: posted.1, at: now, policy: policy, db) }
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

    /// Puts a failed action back in line: sent at the next drain, its backoff from the start.
    func retryAction(_ id: Int64) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE actions SET failure = NULL, attempts = 0, last_error_kind = NULL, last_error = NULL,
                        next_attempt_at = NULL
                    WHERE id = ?
                    """, arguments: [id])
        }
    }

    /// The server refused the action for good: it waits for the user, with the server's reason.
    func markFailed(_ id: Int64, _ reason: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE actions SET failure = ?, last_error_kind = 'refused', last_error = ?, next_attempt_at = NULL
                    WHERE id = ?
                    """, arguments: [reason, reason, id])
        }
    }

    /// The action's try did not land and it waits for the next: counted, with why, and when.
    func scheduleRetry(_ id: Int64, attempts: Int, _ retry: PendingRetry) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE actions SET attempts = ?, last_error_kind = ?, last_error = ?, next_attempt_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    attempts, retry.reason.rawValue, retry.detail, retry.nextAttempt.timeIntervalSince1970, id,
                ])
        }
    }

    /// Puts back in line, due at once, the actions an earlier version gave up on after three tries without a
    /// network or a working server (before issue 24 it stopped there, and the user saw them "failed" for
    /// good). Their `failure` is what the try got, `SpotterClientError.description`: "no response from the
    /// server: …", or "503 Service Unavailable: …", "429 Too Many Requests: …". A refusal kept its attempts
    /// under three and its server's words, and stays failed. Rows written since say why in `last_error_kind`.
    static func requeueGivenUp(_ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE actions SET
                    last_error_kind = CASE
                        WHEN failure LIKE 'no response from the server%' THEN ?
                        WHEN failure LIKE '429 %' THEN ?
                        ELSE ? END,
                    last_error = failure, next_attempt_at = created_at, failure = NULL
                WHERE failure IS NOT NULL AND last_error_kind IS NULL
                    AND (attempts >= 3 OR failure LIKE 'no response from the server%')
                """,
            arguments: [
                PendingRetry.Reason.network.rawValue, PendingRetry.Reason.refusedForNow.rawValue,
                PendingRetry.Reason.server.rawValue,
            ])
    }

    static func insert(_ action: Action, at now: Date, _ db: Database) throws -> QueuedAction {
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
        guard let given = try pendingKudos(on: post, db) else { return }
        try updatePost(post, db) { apply(kudos: given, to: &$0) }
    }

    /// The kudos the last action still waiting on a post gives (true) or takes back (false); nil when none waits.
    static func pendingKudos(on post: PostID, _ db: Database) throws -> Bool? {
        let waiting = try String.fetchAll(
            db, sql: "SELECT action FROM actions WHERE entity = ? AND failure IS NULL ORDER BY id",
            arguments: [Action.setKudos(post, given: true).entity])
        return waiting.compactMap { json -> Bool? in
            guard case .setKudos(_, let given) = try? SpotterClient.decoder.decode(Action.self, from: Data(json.utf8))
            else { return nil }
            return given
        }.last
    }

    /// Shows kudos given or taken back on a post, once.
    static func apply(kudos given: Bool, to post: inout Post) {
        guard post.kudosedByMe != given else { return }
        post.kudosedByMe = given
        post.kudosCount = max(0, post.kudosCount + (given ? 1 : -1))
    }
}
