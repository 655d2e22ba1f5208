import Foundation
import GRDB
import SpotterModels

/// An action in the queue: its order, the idempotency key every try of it carries, and how it is going.
public struct QueuedAction: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var action: Action
    public var idempotencyKey: String
    public var attempts: Int
    /// Set once the action is given up on (refused by the server, or failed too often): it waits for the user
    /// to retry or discard it, and is never dropped silently.
    public var failure: String?
    public var createdAt: Date
}

/// What a drain did with one action.
public enum ActionOutcome: Sendable, Equatable {
    /// The server took it (or had taken it already: the idempotency key makes a replay land once).
    case landed(QueuedAction)
    /// The server refused it for good: revert what was shown optimistically, and tell the user.
    case refused(QueuedAction, Problem)
    /// It failed `maxAttempts` times for want of a connection or a working server; kept, and surfaced.
    case gaveUp(QueuedAction, String)
}

/// The outbox: every change is written here, with its idempotency key, before it is sent, so nothing the
/// user did is lost to a dead network or a killed process. `drain()` sends what waits, oldest first; call it
/// on reconnect and on foreground, and `runPeriodically()` drains every 60 s.
///
/// ```swift
/// let outbox = try ActionQueue(path: cachesFolder + "/outbox.sqlite", client: client)
/// try await outbox.enqueue(.setKudos(post.id, given: true))   // show it given now
/// for outcome in await outbox.drain() {
///     if case .refused(let queued, let problem) = outcome { revert(queued.action, because: problem) }
/// }
/// ```
public actor ActionQueue {
    public let client: SpotterClient
    public let maxAttempts: Int
    private let database: DatabaseQueue
    private var draining = false

    /// - Parameter path: the SQLite file; nil keeps the queue in memory (for tests and previews).
    public init(path: String?, client: SpotterClient, maxAttempts: Int = 3) throws {
        self.client = client
        self.maxAttempts = maxAttempts
        database = try openLocalDatabase(path)
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("outbox") { db in
            try db.execute(
                sql: """
                    CREATE TABLE actions (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        entity TEXT NOT NULL,
                        action TEXT NOT NULL,
                        idempotency_key TEXT NOT NULL UNIQUE,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        failure TEXT,
                        created_at REAL NOT NULL
                    )
                    """)
        }
        return migrator
    }

    /// Stores the action (committed before this returns) and gives it its idempotency key.
    @discardableResult
    public func enqueue(_ action: Action) throws -> QueuedAction {
        let key = SpotterClient.newKey()
        let now = Date()
        let text = String(decoding: try SpotterClient.encoder.encode(action), as: UTF8.self)
        let id = try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO actions (entity, action, idempotency_key, created_at) VALUES (?, ?, ?, ?)
                    """, arguments: [action.entity, text, key, now.timeIntervalSince1970])
            return db.lastInsertedRowID
        }
        return QueuedAction(id: id, action: action, idempotencyKey: key, attempts: 0, failure: nil, createdAt: now)
    }

    /// Actions still to send, oldest first.
    public var pending: [QueuedAction] {
        get throws { try load("WHERE failure IS NULL") }
    }

    /// Actions given up on, for the user to retry or discard.
    public var failed: [QueuedAction] {
        get throws { try load("WHERE failure IS NOT NULL") }
    }

    /// Puts a failed action back in line (same idempotency key, attempts from zero).
    public func retry(_ id: Int64) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE actions SET failure = NULL, attempts = 0 WHERE id = ?", arguments: [id])
        }
    }

    public func discard(_ id: Int64) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM actions WHERE id = ?", arguments: [id]) }
    }

    /// Sends every pending action once, oldest first. An action that fails for want of a connection holds
    /// back the later actions on its entity (so kudos then un-kudos never lands as kudos), but not others.
    /// Signed out, the drain stops and keeps everything for the next session.
    @discardableResult
    public func drain() async -> [ActionOutcome] {
        guard !draining else { return [] }
        draining = true
        defer { draining = false }
        var outcomes: [ActionOutcome] = []
        var heldBack: Set<String> = []
        guard let queue = try? pending else { return [] }
        for queued in queue where !heldBack.contains(queued.action.entity) {
            do {
                try await send(queued)
                try? delete(queued.id)
                outcomes.append(.landed(queued))
            } catch SpotterClientError.signedOut {
                break
            } catch let error as SpotterClientError where !error.isTransient {
                let problem: Problem =
                    if case .problem(let problem) = error { problem } else {
                        Problem(title: "Refused", status: error.status ?? 0, detail: error.description)
                    }
                try? markFailed(queued.id, problem.detail ?? problem.title)
                outcomes.append(.refused(queued, problem))
            } catch {
                heldBack.insert(queued.action.entity)
                let attempts = queued.attempts + 1
                if attempts >= maxAttempts {
                    try? markFailed(queued.id, "\(error)", attempts: attempts)
                    outcomes.append(.gaveUp(queued, "\(error)"))
                } else {
                    try? countAttempt(queued.id, attempts)
                }
            }
        }
        return outcomes
    }

    /// Drains every `interval` until the task is cancelled.
    public func runPeriodically(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            _ = await drain()
            try? await Task.sleep(for: interval)
        }
    }

    private func send(_ queued: QueuedAction) async throws {
        let key = queued.idempotencyKey
        switch queued.action {
        case .setKudos(let post, let given): _ = try await client.setKudos(given, on: post, idempotencyKey: key)
        case .comment(let post, let request): _ = try await client.addComment(request, on: post, idempotencyKey: key)
        case .createPost(let request): _ = try await client.createPost(request, idempotencyKey: key)
        case .follow(let username): _ = try await client.follow(username, idempotencyKey: key)
        case .unfollow(let username): _ = try await client.unfollow(username, idempotencyKey: key)
        case .updateProfile(let changes): _ = try await client.updateProfile(changes, idempotencyKey: key)
        }
    }

    private func load(_ filter: String) throws -> [QueuedAction] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT id, action, idempotency_key, attempts, failure, created_at FROM actions \(filter) ORDER BY id"
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

    private func delete(_ id: Int64) throws { try discard(id) }

    private func markFailed(_ id: Int64, _ reason: String, attempts: Int? = nil) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE actions SET failure = ?, attempts = COALESCE(?, attempts) WHERE id = ?",
                arguments: [reason, attempts, id])
        }
    }

    private func countAttempt(_ id: Int64, _ attempts: Int) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE actions SET attempts = ? WHERE id = ?", arguments: [attempts, id])
        }
    }
}
