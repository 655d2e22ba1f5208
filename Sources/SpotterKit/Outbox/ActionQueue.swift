import Foundation
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
/// on reconnect and on foreground, and `runPeriodically()` drains every 60 s. The actions live in the
/// client's `AppDatabase`, beside the cached posts they change.
///
/// ```swift
/// let outbox = ActionQueue(database: session.database, client: client)
/// try await outbox.enqueue(.follow("ana"))
/// for outcome in await outbox.drain() {
///     if case .refused(let queued, let problem) = outcome { revert(queued.action, because: problem) }
/// }
/// ```
public actor ActionQueue {
    public let client: SpotterClient
    public let maxAttempts: Int
    /// Where the actions wait, with the caches they change.
    public nonisolated let database: AppDatabase
    private var draining = false

    public init(database: AppDatabase, client: SpotterClient, maxAttempts: Int = 3) {
        self.client = client
        self.maxAttempts = maxAttempts
        self.database = database
    }

    /// A queue in a database of its own at `path` (nil: in memory), as the `spotter` command line keeps it.
    public init(path: String?, client: SpotterClient, maxAttempts: Int = 3) throws {
        self.init(database: try AppDatabase(path: path), client: client, maxAttempts: maxAttempts)
    }

    /// Stores the action (committed before this returns) and gives it its idempotency key.
    @discardableResult
    public func enqueue(_ action: Action) async throws -> QueuedAction {
        try await database.enqueue(action)
    }

    /// Gives or takes back kudos: the cached post shows it and the action is queued, in one transaction, so
    /// every screen shows it at once. `drain()` sends it.
    @discardableResult
    public func setKudos(_ given: Bool, on post: PostID) async throws -> QueuedAction {
        try await database.setKudos(given, on: post)
    }

    /// Actions still to send, oldest first.
    public var pending: [QueuedAction] {
        get async throws { try await database.actions(failed: false) }
    }

    /// Actions given up on, for the user to retry or discard.
    public var failed: [QueuedAction] {
        get async throws { try await database.actions(failed: true) }
    }

    /// Puts a failed action back in line (same idempotency key, attempts from zero).
    public func retry(_ id: Int64) async throws { try await database.retryAction(id) }

    public func discard(_ id: Int64) async throws { try await database.deleteAction(id) }

    /// Discards a refused action and undoes what it showed (kudos on the cached post): the user has been told.
    public func revert(_ queued: QueuedAction) async throws { try await database.revert(queued) }

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
        guard let queue = try? await pending else { return [] }
        for queued in queue where !heldBack.contains(queued.action.entity) {
            do {
                let kudos = try await send(queued)
                try? await database.landed(queued, kudos: kudos)
                outcomes.append(.landed(queued))
            } catch SpotterClientError.signedOut {
                break
            } catch let error as SpotterClientError where !error.isTransient {
                let problem: Problem =
                    if case .problem(let problem) = error { problem } else {
                        Problem(title: "Refused", status: error.status ?? 0, detail: error.description)
                    }
                try? await database.markFailed(queued.id, problem.detail ?? problem.title)
                outcomes.append(.refused(queued, problem))
            } catch {
                heldBack.insert(queued.action.entity)
                let attempts = queued.attempts + 1
                if attempts >= maxAttempts {
                    try? await database.markFailed(queued.id, "\(error)", attempts: attempts)
                    outcomes.append(.gaveUp(queued, "\(error)"))
                } else {
                    try? await database.countAttempt(queued.id, attempts)
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

    /// Sends one action; for kudos, returns the post's kudos as the server now counts them.
    private func send(_ queued: QueuedAction) async throws -> KudosState? {
        let key = queued.idempotencyKey
        switch queued.action {
        case .setKudos(let post, let given): return try await client.setKudos(given, on: post, idempotencyKey: key)
        case .comment(let post, let request): _ = try await client.addComment(request, on: post, idempotencyKey: key)
        case .createPost(let request): _ = try await client.createPost(request, idempotencyKey: key)
        case .follow(let username): _ = try await client.follow(username, idempotencyKey: key)
        case .unfollow(let username): _ = try await client.unfollow(username, idempotencyKey: key)
        case .updateProfile(let changes): _ = try await client.updateProfile(changes, idempotencyKey: key)
        }
        return nil
    }
}
