import Foundation
import SpotterModels

/// The social graph: follows (accepted or pending approval), blocks and mutes.
public protocol GraphStore: Sendable {
    /// How `viewer` stands with `other`.
    func relationship(of viewer: UserID, with other: UserID) async throws -> Relationship
    /// Whether `actor` may reach `recipient` at all, in one read: the actor's account exists and is not
    /// suspended, neither blocks the other, and the recipient does not mute the actor: `PersonPolicy`'s
    /// `notifications` for two people (the caller leaves out someone reaching themselves).
    func mayReach(_ recipient: UserID, from actor: UserID) async throws -> Bool
    /// Adds a follow edge, or leaves an existing one as it is. Returns the edge's state after the call.
    @discardableResult
    func follow(
        _ follower: UserID, _ followee: UserID, state: FollowEdgeState, at date: Date
    ) async throws
        -> FollowEdgeState
    /// Removes a follow edge in either state; returns whether there was one.
    @discardableResult
    func unfollow(_ follower: UserID, _ followee: UserID) async throws -> Bool
    /// Turns a pending request into a follow; returns whether there was a pending request.
    func acceptFollow(_ follower: UserID, _ followee: UserID) async throws -> Bool
    /// Accepts every pending request to `followee` (the account stopped being private).
    func acceptPendingFollows(of followee: UserID) async throws
    /// Blocks, and removes follows both ways, in one transaction.
    func block(_ blocker: UserID, _ blocked: UserID, at date: Date) async throws
    func unblock(_ blocker: UserID, _ blocked: UserID) async throws
    func mute(_ muter: UserID, _ muted: UserID, at date: Date) async throws
    func unmute(_ muter: UserID, _ muted: UserID) async throws
    /// A page of accounts following `user` (or requesting to, with `.pending`), newest first, leaving out
    /// suspended accounts and anyone blocked either way with `viewer`.
    func followers(
        of user: UserID, state: FollowEdgeState, viewer: UserID?, after: FollowCursor?, limit: Int
    )
        async throws -> [FollowEntry]
    /// A page of accounts `user` follows (accepted only), with the same filtering.
    func following(of user: UserID, viewer: UserID?, after: FollowCursor?, limit: Int) async throws -> [FollowEntry]
    /// A page of the accounts `user` blocks or mutes, most recent first (suspended ones too: they can still
    /// be unblocked).
    func restricted(
        _ kind: RestrictionKind, by user: UserID, after: FollowCursor?, limit: Int
    ) async throws
        -> [FollowEntry]
    /// People `user` might follow: featured accounts first, then the most followed; never `user`, anyone they
    /// follow or asked to, anyone blocked either way, or a suspended account.
    func suggestions(for user: UserID, limit: Int) async throws -> [AccountRecord]
    /// Accepted followers and followings, not counting suspended accounts.
    func counts(of user: UserID) async throws -> (followers: Int, following: Int)
    /// Everyone who blocks someone or is blocked by someone. The realtime hub serves everyone else one shared
    /// view of a public post, since blocks are all that make one such viewer's view differ from another's.
    func peopleInBlocks() async throws -> Set<UserID>
    /// Everyone who blocks `user` or whom `user` blocks.
    func blockedEitherWay(with user: UserID) async throws -> Set<UserID>
    /// Everyone who mutes `user`.
    func muters(of user: UserID) async throws -> Set<UserID>
    /// Everyone whose follow of `user` is accepted (suspended people included: callers filter as they need).
    func followerIDs(of user: UserID) async throws -> Set<UserID>
    /// The private accounts `user` follows (accepted): the only private people whose presence they see.
    func followedPrivateAccounts(by user: UserID) async throws -> Set<UserID>
}

public enum FollowEdgeState: String, Sendable {
    case accepted, pending
}

/// The two lists a person keeps of others: whom they block and whom they mute.
public enum RestrictionKind: Sendable {
    case blocks, mutes
}

/// Where a follower list page ends: the follow time and the other account's id.
public struct FollowCursor: Sendable, Equatable {
    public var createdAt: Date
    public var userID: UserID

    public init(createdAt: Date, userID: UserID) {
        self.createdAt = createdAt
        self.userID = userID
    }
}

/// One row of a follower or following list.
public struct FollowEntry: Sendable, Equatable {
    public var account: AccountRecord
    public var since: Date

    public init(account: AccountRecord, since: Date) {
        self.account = account
        self.since = since
    }

    public var cursor: FollowCursor { FollowCursor(createdAt: since, userID: account.id) }
}
