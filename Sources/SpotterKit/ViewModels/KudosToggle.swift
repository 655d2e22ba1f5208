import Foundation
import SpotterModels

/// Kudos the offline-first way, for every screen that shows a post.
@MainActor
enum KudosToggle {
    /// Gives (or takes back) kudos: the cached post and the queued action are written in one transaction,
    /// `shown` reads the post back for the screen at once, then the outbox sends what waits. Returns what to
    /// tell the user, or nil: a refusal for good changes the post back (every screen follows) and drops the
    /// action; no network leaves it waiting, still shown, for the next drain.
    static func toggle(
        _ given: Bool, on id: PostID, outbox: ActionQueue, shown: @MainActor () async -> Void
    ) async -> String? {
        do {
            let queued = try await outbox.setKudos(given, on: id)
            await shown()
            for outcome in await outbox.drain() {
                guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                try await outbox.revert(refused)
                await shown()
                return problem.detail ?? problem.title
            }
            await shown()
            return nil
        } catch {
            return FeedViewModel.message(error)
        }
    }
}

/// What a screen last showed of the client database, by revision, so that an observed value read before the
/// screen's own write never replaces the value read after it.
struct PostsShown<Value: Sendable> {
    private var revision = Int64.min

    /// The value, if it is at least as fresh as the one shown.
    mutating func newer(_ read: Revisioned<Value>) -> Value? {
        guard read.revision >= revision else { return nil }
        revision = read.revision
        return read.value
    }
}
