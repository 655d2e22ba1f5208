import Foundation
import SpotterModels

/// The outbox: every change is written here, with its idempotency key, before it is sent, so nothing the
/// user did is lost to a dead network or a killed process. `drain()` sends what waits, oldest first; call it
/// on foreground, `drain(ignoringBackoff: true)` on reconnect, and `runPeriodically()` drains every 60 s. The
/// actions live in the client's `AppDatabase`, beside the cached posts they change.
///
/// An action that does not land for want of a network or a working server is never given up on: it waits,
/// longer after each failure up to a cap (`RetryPolicy.outbox`), or as long as the server's `Retry-After`
/// says, and `pending` tells why and until when (`QueuedAction.retry`). Only the server's refusal for good
/// fails one (`failed`), with its reason, for the user to retry or discard.
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
    /// When an action that did not land is tried again (`RetryPolicy.outbox`); its `maxAttempts` is not used:
    /// the outbox never runs out of tries.
    public let retry: RetryPolicy
    /// Where the actions wait, with the caches they change.
    public nonisolated let database: AppDatabase
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private var draining = false

    /// - Parameters:
    ///   - retry: when an action that did not land is tried again.
    ///   - now: the clock the retry times are kept by; tests pass one they move.
    ///   - random: the jitter source, in 0...1.
    public init(
        database: AppDatabase, client: SpotterClient, retry: RetryPolicy = .outbox,
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.client = client
        self.retry = retry
        self.database = database
        self.now = now
        self.random = random
    }

    /// A queue in a database of its own at `path` (nil: in memory), as the `spotter` command line keeps it.
    public init(
        path: String?, client: SpotterClient, retry: RetryPolicy = .outbox,
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) throws {
        self.init(database: try AppDatabase(path: path), client: client, retry: retry, now: now, random: random)
    }

    /// Stores the action (committed before this returns) and gives it its idempotency key.
    @discardableResult
    public func enqueue(_ action: Action) async throws -> QueuedAction {
        try await database.enqueue(action, at: now())
    }

    /// Gives or takes back kudos: the cached post shows it and the action is queued, in one transaction, so
    /// every screen shows it at once. `drain()` sends it.
    @discardableResult
    public func setKudos(_ given: Bool, on post: PostID) async throws -> QueuedAction {
        try await database.setKudos(given, on: post, at: now())
    }

    /// Edits one's own post the offline-first way: the cached post (if kept) shows the edit, marked edited, and
    /// the edit waits in the outbox, in one transaction. When it lands, the server's post (its personal records
    /// detected again) replaces the cached one.
    @discardableResult
    public func editPost(_ post: PostID, _ request: UpdatePostRequest) async throws -> QueuedAction {
        try await database.editPost(post, request, at: now())
    }

    /// Marks the inbox (seen, read, a row read) or archives a row the offline-first way: the kept inbox and
    /// badge show it and the action is queued, in one transaction. `drain()` sends it.
    @discardableResult
    public func markInbox(_ action: Action) async throws -> QueuedAction {
        try await database.markInbox(action, at: now())
    }

    /// Actions still to send, oldest first, each with why its last try did not land and when the next is due.
    public var pending: [QueuedAction] {
        get async throws { try await database.actions(failed: false) }
    }

    /// Actions the server refused for good, with its reason, for the user to retry or discard.
    public var failed: [QueuedAction] {
        get async throws { try await database.actions(failed: true) }
    }

    /// Puts a failed action back in line (same idempotency key, attempts from zero), sent at the next drain.
    public func retry(_ id: Int64) async throws { try await database.retryAction(id) }

    public func discard(_ id: Int64) async throws { try await database.deleteAction(id) }

    /// Discards a refused action and undoes what it showed (kudos on the cached post): the user has been told.
    public func revert(_ queued: QueuedAction) async throws { try await database.revert(queued) }

    /// Sends the pending actions that are due, oldest first, once each.
    ///
    /// An action whose try does not land for want of a network or a working server (no response, 5xx, 408,
    /// 429, a 409 for its key still being processed) waits for its next try, and holds back the later actions
    /// on its entity, so kudos then un-kudos never lands as kudos; others go on. No response ends the drain:
    /// without a network the rest would fail the same way, and keep their turn. A refusal for good (any other
    /// 4xx) fails the action, with the server's reason. Signed out, the drain stops and keeps everything for
    /// the next session.
    ///
    /// - Parameter ignoringBackoff: send the actions still waiting out their backoff too: the network just came
    ///   back (a reconnect), or the user asked. An action the server refused for now (429) still waits for the
    ///   time the server gave: asking again sooner only meets the same limit.
    @discardableResult
    public func drain(ignoringBackoff: Bool = false) async -> [ActionOutcome] {
        guard !draining else { return [] }
        draining = true
        defer { draining = false }
        var outcomes: [ActionOutcome] = []
        var heldBack: Set<String> = []
        guard let queue = try? await pending else { return [] }
        for queued in queue where !heldBack.contains(queued.action.entity) {
            guard isDue(queued, ignoringBackoff: ignoringBackoff) else {
                heldBack.insert(queued.action.entity)
                continue
            }
            do {
                let answer = try await send(queued)
                try? await database.landed(queued, kudos: answer.kudos, post: answer.post)
                outcomes.append(.landed(queued))
            } catch SpotterClientError.signedOut {
                break
            } catch is CancellationError {
                break
            } catch {
                let failure = error as? SpotterClientError ?? .transport("\(error)")
                guard let reason = PendingRetry.Reason(failure) else {
                    let problem =
                        failure.problem
                        ?? Problem(title: "Refused", status: failure.status ?? 0, detail: failure.description)
                    try? await database.markFailed(queued.id, problem.explanation)
                    outcomes.append(.refused(queued, problem))
                    continue
                }
                heldBack.insert(queued.action.entity)
                let attempts = queued.attempts + 1
                // A server asking for longer than the policy waits is asked again at the policy's longest wait.
                let wait = retry.wait(after: failure, attempt: attempts, random: random()) ?? retry.maxRetryAfter
                let next = PendingRetry(
                    reason: reason, detail: failure.problem?.explanation ?? failure.description,
                    nextAttempt: now() + wait.timeInterval)
                try? await database.scheduleRetry(queued.id, attempts: attempts, next)
                if reason == .network { break }
            }
        }
        return outcomes
    }

    /// Drains every `interval` until the task is cancelled; each drain sends only what is due.
    public func runPeriodically(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            _ = await drain()
            try? await Task.sleep(for: interval)
        }
    }

    /// Whether a drain sends the action now: it was never tried, its next try is due, or the drain ignores
    /// the backoff and it is not waiting for a time the server gave.
    private func isDue(_ queued: QueuedAction, ignoringBackoff: Bool) -> Bool {
        guard let retry = queued.retry, retry.nextAttempt > now() else { return true }
        return ignoringBackoff && retry.reason != .refusedForNow
    }

    /// Sends one action; returns, for kudos, the post's kudos as the server now counts them, and for a new
    /// post, the post as the server made it (it takes the sending one's place in the feeds).
    private func send(_ queued: QueuedAction) async throws -> (kudos: KudosState?, post: Post?) {
        let key = queued.idempotencyKey
        switch queued.action {
        case .setKudos(let post, let given):
            return (try await client.setKudos(given, on: post, idempotencyKey: key), nil)
        case .comment(let post, let request): _ = try await client.addComment(request, on: post, idempotencyKey: key)
        case .createPost(let request): return (nil, try await client.createPost(request, idempotencyKey: key))
        case .follow(let username): _ = try await client.follow(username, idempotencyKey: key)
        case .unfollow(let username): _ = try await client.unfollow(username, idempotencyKey: key)
        case .updateProfile(let changes): _ = try await client.updateProfile(changes, idempotencyKey: key)
        case .updatePost(let post, let request):
            try await database.save([try await client.updatePost(post, request, idempotencyKey: key)])
        case .markNotificationsSeen(let upTo):
            try await database.saveInboxCounts(try await client.markNotificationsSeen(upTo: upTo, idempotencyKey: key))
        case .markNotificationsRead(let upTo):
            try await database.saveInboxCounts(try await client.markNotificationsRead(upTo: upTo, idempotencyKey: key))
        case .markNotificationGroupRead(let group):
            try await database.saveInboxCounts(try await client.markNotificationGroupRead(group, idempotencyKey: key))
        case .archiveNotificationGroup(let group):
            try await database.saveInboxCounts(try await client.archiveNotificationGroup(group, idempotencyKey: key))
        case .answerFollowRequest(let username, let approve):
            try await client.answerFollowRequest(from: username, approve: approve, idempotencyKey: key)
        case .answerJoinRequest(let group, let user, let approve):
            try await client.answerJoinRequest(in: group, from: user, approve: approve, idempotencyKey: key)
        }
        return (nil, nil)
    }
}

extension PendingRetry.Reason {
    /// Why a try that failed with `error` waits for another; nil when it cannot succeed later (a refusal for
    /// good, `SpotterClientError.isTransient`).
    init?(_ error: SpotterClientError) {
        guard error.isTransient else { return nil }
        switch error.status {
        case nil: self = .network
        case 429: self = .refusedForNow
        case 409: self = .stillProcessing
        default: self = .server
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
