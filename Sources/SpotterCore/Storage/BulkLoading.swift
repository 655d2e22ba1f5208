import Foundation
import SpotterModels

/// Loads many rows at once, bypassing the stores' one-row-per-call writes: for `spotter seed` and
/// `spotter bench`, which fill a database with a million posts.
///
/// Each call loads its batch in one transaction, as fast as the database allows (SQLite: one prepared statement
/// reused per row; PostgreSQL: multi-row `INSERT`s). Nothing here enforces the services' rules — no duplicate
/// checks, no rate limits, no personal records — so normal writes must keep going through the stores. Callers
/// hand over rows whose references already exist (accounts before their follows and posts).
///
/// ```swift
/// guard let bulk = storage as? any BulkLoading else { return }
/// try await bulk.loadAccounts(accounts)
/// try await bulk.loadFollows(follows)
/// try await bulk.loadPosts(posts)
/// try await bulk.analyze()
/// ```
public protocol BulkLoading: Sendable {
    /// Inserts accounts as `AccountStore.create` would store them (case-folded username and email keys).
    func loadAccounts(_ accounts: [AccountRecord]) async throws
    /// Inserts accepted follow edges.
    func loadFollows(_ follows: [(follower: UserID, followee: UserID, at: Date)]) async throws
    /// Inserts posts together with their `post_tags` rows, as `PostStore.insert` would store them (a group
    /// post with its group).
    func loadPosts(_ posts: [PostRecord]) async throws
    /// Makes people members of groups that exist, with their roles.
    func loadGroupMembers(_ members: [(group: GroupID, user: UserID, role: GroupRole, at: Date)]) async throws
    /// Refreshes the query planner's statistics (`ANALYZE`), so feeds are planned for the data just loaded
    /// rather than for the empty tables the planner last saw.
    func analyze() async throws
    /// How many accounts and posts (deleted ones included) the database holds: seeding refuses to add to a
    /// database that has accounts, and a benchmark reports the size it measured.
    func size() async throws -> (accounts: Int, posts: Int)
}
