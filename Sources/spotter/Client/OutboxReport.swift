import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// What the terminal client says after it drains the outbox: what was sent or refused, and what still waits
/// and why, so a rate limit is not mistaken for a dead network.
enum OutboxReport {
    /// What is left in the outbox after a drain.
    struct Left {
        /// Actions waiting or refused for good.
        let count: Int
        /// Nobody is signed in (the login ended since `spotter login`): nothing that waits can go until then.
        let needsSignIn: Bool
    }

    /// Drains (`listing`, as `spotter outbox`: without waiting out the backoff) and reports. When the server
    /// refused `sending` (the action this command just queued), for good or for now, or nobody is signed in to
    /// send it, the command exits 1 after saying so: a script must not take a refused post for a sent one.
    @discardableResult
    static func drainAndReport(
        _ outbox: ActionQueue, listing: Bool = false, sending: QueuedAction? = nil
    )
        async throws -> Left
    {
        var refused = false
        for outcome in await outbox.drain(ignoringBackoff: listing) {
            switch outcome {
            case .landed(let queued): print("sent: \(describe(queued.action))")
            case .refused(let queued, let problem):
                print("refused: \(describe(queued.action)): \(problem.explanation)")
                refused = refused || queued.id == sending?.id
            }
        }
        let now = Date()
        let pending = try await outbox.pending
        let failed = try await outbox.failed
        // The drain stops, keeping everything, when the server ended the login (the client forgets it then).
        let client = await outbox.client
        let signedOut = pending.isEmpty ? false : await !client.isSignedIn
        for line in signedOut ? [waitingForSignIn(pending.count)] : summary(pending, now: now) { print(line) }
        refused = refused || pending.contains { $0.id == sending?.id && $0.retry?.reason == .refusedForNow }
        if refused || (signedOut && sending != nil) { throw ExitCode.failure }
        let left = Left(count: pending.count + failed.count, needsSignIn: signedOut)
        guard listing else { return left }
        for queued in pending {
            let reason = signedOut ? "\(NotSignedIn.advice)." : why(queued, now: now)
            print("  waiting #\(queued.id): \(describe(queued.action)) — \(reason)")
        }
        for queued in failed {
            print(
                "  failed #\(queued.id): \(describe(queued.action)) — \(queued.failure ?? "refused")"
                    + " (`spotter outbox --retry \(queued.id)` sends it again, `--discard \(queued.id)` drops it)")
        }
        return left
    }

    /// "2 waiting to be sent: not signed in: run `spotter login`, then `spotter outbox` sends them."
    static func waitingForSignIn(_ count: Int) -> String {
        "\(count) waiting to be sent: \(NotSignedIn.advice), then `spotter outbox` sends \(count == 1 ? "it" : "them")."
    }

    /// A line for each action refused for now (a rate limit: the user should know, and when it goes again),
    /// and one for the rest, saying "offline?" only when the network was why.
    static func summary(_ pending: [QueuedAction], now: Date) -> [String] {
        var lines: [String] = []
        var others: [QueuedAction] = []
        for queued in pending {
            guard let retry = queued.retry, retry.reason == .refusedForNow else {
                others.append(queued)
                continue
            }
            lines.append(
                "Refused: \(describe(queued.action)): \(rule(retry.detail)) Try again at "
                    + "\(time(retry.nextAttempt, from: now)); it waits in the outbox until then, and "
                    + "`spotter outbox` sends it.")
        }
        guard !others.isEmpty else { return lines }
        let reasons = others.compactMap(\.retry)
        let waiting = "\(others.count) waiting to be sent"
        if reasons.contains(where: { $0.reason == .network }) {
            lines.append("\(waiting) (offline?); `spotter outbox` sends them.")
        } else if let server = reasons.filter({ $0.reason == .server }).min(by: { $0.nextAttempt < $1.nextAttempt }) {
            lines.append(
                "\(waiting): the server could not take them (\(server.detail)); next try at "
                    + "\(time(server.nextAttempt, from: now)).")
        } else {
            lines.append("\(waiting); `spotter outbox` sends them.")
        }
        return lines
    }

    /// The rule a rate limit's detail states, without the server's own "you can post again at …" (said here in
    /// the terminal's time zone): "New accounts can post 5 times an hour."
    static func rule(_ detail: String) -> String {
        let rule = detail.components(separatedBy: "; ").first ?? detail
        return rule.hasSuffix(".") ? rule : rule + "."
    }

    /// Why an action waits, and when it is tried next.
    static func why(_ queued: QueuedAction, now: Date) -> String {
        guard let retry = queued.retry else { return "not sent yet" }
        let reason =
            switch retry.reason {
            case .network: "no response from the server (offline?)"
            case .server: "the server could not take it: \(retry.detail)"
            case .refusedForNow: "refused for now: \(retry.detail)"
            case .stillProcessing: "the server is still processing an earlier try"
            }
        let sentence = reason.hasSuffix(".") ? reason : reason + "."
        guard retry.nextAttempt > now else { return "\(sentence) Sent again at the next drain." }
        return "\(sentence) Next try at \(time(retry.nextAttempt, from: now))."
    }

    /// "14:05 (in 23 min)", with the day when it is not today.
    static func time(_ date: Date, from now: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: now) ? "HH:mm" : "MMM d, HH:mm"
        let seconds = date.timeIntervalSince(now)
        let relative =
            if seconds < 60 {
                "in under a minute"
            } else if seconds < 90 * 60 {
                "in \(Int((seconds / 60).rounded())) min"
            } else {
                "in \(Int((seconds / 3600).rounded())) h"
            }
        return "\(formatter.string(from: date)) (\(relative))"
    }

    static func describe(_ action: Action) -> String {
        switch action {
        case .setKudos(let post, let given): given ? "kudos to \(post)" : "kudos taken back from \(post)"
        case .comment(let post, _): "comment on \(post)"
        case .createPost(let request):
            (request.workout.map { "workout \"\($0.title.prefix(40))\"" }
                ?? "post \"\((request.text ?? "").prefix(40))\"") + (request.groupID.map { " to group \($0)" } ?? "")
        case .follow(let username): "follow @\(username)"
        case .unfollow(let username): "unfollow @\(username)"
        case .updateProfile: "profile changes"
        case .updatePost(let post, _): "edit of \(post)"
        case .markNotificationsSeen: "notifications marked seen"
        case .markNotificationsRead: "notifications marked read"
        case .markNotificationGroupRead: "a notification marked read"
        case .archiveNotificationGroup: "a notification archived"
        case .answerFollowRequest(let username, let approve):
            approve ? "follow request of @\(username) approved" : "follow request of @\(username) denied"
        case .answerJoinRequest(let group, _, let approve):
            approve ? "request to join group \(group) approved" : "request to join group \(group) turned away"
        }
    }
}

/// A command that needs a session, before `spotter login` (or after the server ended the login).
struct NotSignedIn: Error, CustomStringConvertible {
    static let advice = "not signed in: run `spotter login`"

    var description: String { Self.advice }
}
