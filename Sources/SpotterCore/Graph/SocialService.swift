import Foundation
import SpotterModels

/// Profiles and the social graph: who follows whom, follow requests to private accounts, blocks and mutes.
///
/// An account that is suspended, or that blocked the viewer or was blocked by them, does not exist as far as
/// the viewer can tell: every route answers 404 for it.
public struct SocialService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    let notifier: Notifier?
    /// Hears of changed relationships, so live sockets judge presence between the two again.
    let events: (any EventBus)?

    public init(
        storage: any SpotterStorage, clock: any WallClock, notifier: Notifier? = nil, events: (any EventBus)? = nil
    ) {
        self.storage = storage
        self.clock = clock
        self.notifier = notifier
        self.events = events
    }

    /// The account behind `username` if `viewer` may know of it.
    public func visibleAccount(_ username: String, viewer: AccountRecord?) async throws -> AccountRecord {
        guard let account = try await storage.accounts.find(username: username),
            try await isVisible(account, to: viewer)
        else { throw SpotterError.notFound("No such user.") }
        return account
    }

    /// Whether the person behind `id` exists for `viewer` (`PersonPolicy`).
    public func isVisible(_ id: UserID, to viewer: AccountRecord?) async throws -> Bool {
        try await allows(.exists, of: id, to: viewer)
    }

    /// Whether `viewer` may see `aspect` of the person behind `id`, by the one rule (`PersonPolicy`); `false`
    /// for nobody.
    public func allows(_ aspect: PersonPolicy.Aspect, of id: UserID, to viewer: AccountRecord?) async throws -> Bool {
        guard let account = try await storage.accounts.find(id: id) else { return false }
        return PersonPolicy.allows(aspect, try await facts(of: account, for: viewer?.id))
    }

    /// What `PersonPolicy` asks of `account` and `viewer`: two reads of the graph when they are two people.
    public func facts(of account: AccountRecord, for viewer: UserID?) async throws -> PersonPolicy.Facts {
        guard let viewer else { return .signedOut(account) }
        var facts = PersonPolicy.Facts(
            isSelf: account.id == viewer, suspended: account.suspendedAt != nil, privacy: account.profile.privacy)
        guard !facts.isSelf else { return facts }
        let relationship = try await storage.graph.relationship(of: viewer, with: account.id)
        let reverse = try await storage.graph.relationship(of: account.id, with: viewer)
        facts.blockedEitherWay = relationship.blocking || reverse.blocking
        facts.follows = relationship.following == .following
        facts.muted = relationship.muting
        return facts
    }

    private func isVisible(_ account: AccountRecord, to viewer: AccountRecord?) async throws -> Bool {
        PersonPolicy.allows(.exists, try await facts(of: account, for: viewer?.id))
    }

    public func profile(_ username: String, viewer: AccountRecord?) async throws -> Profile {
        let account = try await visibleAccount(username, viewer: viewer)
        let counts = try await storage.graph.counts(of: account.id)
        let posts = try await storage.posts.countVisiblePosts(by: account.id, viewer: viewer?.id)
        var relationship: Relationship?
        if let viewer, viewer.id != account.id {
            relationship = try await storage.graph.relationship(of: viewer.id, with: account.id)
        }
        return Profile(
            id: account.id, username: account.username, displayName: account.displayName, bio: account.profile.bio,
            avatarURL: account.profile.avatarURL, units: account.profile.units, timeZone: account.profile.timeZone,
            privacy: account.profile.privacy, createdAt: account.createdAt, followersCount: counts.followers,
            followingCount: counts.following, postsCount: posts, relationship: relationship)
    }

    /// Follows `username`: at once for public and followers-only accounts, as a request for private ones.
    public func follow(_ username: String, viewer: AccountRecord) async throws -> Relationship {
        let target = try await visibleAccount(username, viewer: viewer)
        guard target.id != viewer.id else { throw SpotterError.invalid("username", "You can't follow yourself.") }
        let state: FollowEdgeState = target.profile.privacy == .private ? .pending : .accepted
        let before = try await storage.graph.relationship(of: viewer.id, with: target.id)
        try await storage.graph.follow(viewer.id, target.id, state: state, at: clock.now)
        let after = try await storage.graph.relationship(of: viewer.id, with: target.id)
        if before.following != after.following {
            await events?.publish(.relationshipChanged(viewer.id, target.id))
            await notifier?.notify(
                after.following == .requested
                    ? .followRequested(requester: viewer.id, target: target.id)
                    : .followed(follower: viewer.id, followee: target.id))
        }
        return after
    }

    /// Unfollows, or withdraws a request (and with it the request's notice in the other person's inbox).
    public func unfollow(_ username: String, viewer: AccountRecord) async throws -> Relationship {
        let target = try await visibleAccount(username, viewer: viewer)
        let before = try await storage.graph.relationship(of: viewer.id, with: target.id)
        if try await storage.graph.unfollow(viewer.id, target.id) {
            await events?.publish(.relationshipChanged(viewer.id, target.id))
        }
        if before.following == .requested { try await closeRequestNotice(from: viewer.id, to: target) }
        return try await storage.graph.relationship(of: viewer.id, with: target.id)
    }

    /// Takes a follow request's notice out of the inbox once the request is answered or withdrawn: its
    /// Approve and Deny buttons would answer nothing. The notice's group is the requester's (see `Notifier`).
    private func closeRequestNotice(from requester: UserID, to target: AccountRecord) async throws {
        let key = Notifier.followRequestGroup(requester)
        if try await storage.notifications.archive(of: target.id, groupKey: key, at: clock.now) {
            await events?.publish(.notificationCountsChanged(target.id))
        }
    }

    /// Approves or denies `username`'s request to follow the viewer.
    public func answerRequest(from username: String, viewer: AccountRecord, approve: Bool) async throws {
        let requester = try await visibleAccount(username, viewer: viewer)
        let relationship = try await storage.graph.relationship(of: requester.id, with: viewer.id)
        guard relationship.following == .requested else {
            throw SpotterError.notFound("No follow request from this user.")
        }
        if approve {
            if try await storage.graph.acceptFollow(requester.id, viewer.id) {
                await events?.publish(.relationshipChanged(requester.id, viewer.id))
                await notifier?.notify(.followRequestApproved(requester: requester.id, target: viewer.id))
            }
        } else {
            try await storage.graph.unfollow(requester.id, viewer.id)
        }
        try await closeRequestNotice(from: requester.id, to: viewer)
    }

    public func setBlocked(_ username: String, viewer: AccountRecord, blocked: Bool) async throws -> Relationship {
        // Unblocking must find accounts the viewer blocked, which `visibleAccount` hides.
        guard let target = try await storage.accounts.find(username: username), target.id != viewer.id else {
            throw SpotterError.notFound("No such user.")
        }
        if blocked {
            try await storage.graph.block(viewer.id, target.id, at: clock.now)
        } else {
            try await storage.graph.unblock(viewer.id, target.id)
        }
        await events?.publish(.relationshipChanged(viewer.id, target.id))
        return try await storage.graph.relationship(of: viewer.id, with: target.id)
    }

    public func setMuted(_ username: String, viewer: AccountRecord, muted: Bool) async throws -> Relationship {
        let target = try await visibleAccount(username, viewer: viewer)
        guard target.id != viewer.id else { throw SpotterError.invalid("username", "You can't mute yourself.") }
        if muted {
            try await storage.graph.mute(viewer.id, target.id, at: clock.now)
        } else {
            try await storage.graph.unmute(viewer.id, target.id)
        }
        return try await storage.graph.relationship(of: viewer.id, with: target.id)
    }

    public enum ListKind: Sendable { case followers, following }

    /// Followers or followings of `username`; a private account's lists are for its approved followers only.
    public func list(
        _ kind: ListKind, of username: String, viewer: AccountRecord?, page: FollowPage
    ) async throws
        -> Page<AuthorSummary>
    {
        guard let account = try await storage.accounts.find(username: username) else {
            throw SpotterError.notFound("No such user.")
        }
        let facts = try await facts(of: account, for: viewer?.id)
        guard PersonPolicy.allows(.exists, facts) else { throw SpotterError.notFound("No such user.") }
        guard PersonPolicy.allows(.lists, facts) else {
            throw SpotterError.forbidden("This account is private: only its approved followers see its lists.")
        }
        let entries =
            switch kind {
            case .followers:
                try await storage.graph.followers(
                    of: account.id, state: .accepted, viewer: viewer?.id, after: page.cursor, limit: page.limit + 1)
            case .following:
                try await storage.graph.following(
                    of: account.id, viewer: viewer?.id, after: page.cursor, limit: page.limit + 1)
            }
        return page.page(entries)
    }

    /// Whom the viewer blocks or mutes, most recent first, each with a way back (`setBlocked`, `setMuted`).
    public func restricted(
        _ kind: RestrictionKind, viewer: AccountRecord, page: FollowPage
    ) async throws
        -> Page<AuthorSummary>
    {
        let entries = try await storage.graph.restricted(kind, by: viewer.id, after: page.cursor, limit: page.limit + 1)
        return page.page(entries)
    }

    /// People suggested to someone who just joined: featured accounts, then the most followed, leaving out
    /// whom they follow already and anyone in a block with them.
    public func suggestions(viewer: AccountRecord, limit: Int = 8) async throws -> [AuthorSummary] {
        try await storage.graph.suggestions(for: viewer.id, limit: limit).map(\.summary)
    }

    /// People waiting for the viewer to approve their follow request, newest first.
    public func followRequests(viewer: AccountRecord, page: FollowPage) async throws -> Page<AuthorSummary> {
        let entries = try await storage.graph.followers(
            of: viewer.id, state: .pending, viewer: viewer.id, after: page.cursor, limit: page.limit + 1)
        return page.page(entries)
    }
}

/// Pagination of follow lists, ordered by follow time; the cursor carries the time and the account id.
public struct FollowPage: Sendable {
    public var limit: Int
    public var cursor: FollowCursor?

    public init(limit: String?, cursor: String?) throws {
        let base = try PageRequest(limit: limit, cursor: nil, since: nil)
        self.limit = base.limit
        guard let cursor = PageRequest.given(cursor) else { return }
        let parts = Base64URL.decodeText(cursor)?.split(separator: "|")
        guard cursor.count <= 128, let parts, parts.count == 3, parts[0] == "f1",
            let time = Double(parts[1]), let id = UserID(String(parts[2]))
        else { throw SpotterError.malformed(detail: "cursor is not a cursor this server gave out.", field: "cursor") }
        self.cursor = FollowCursor(createdAt: Date(timeIntervalSince1970: time), userID: id)
    }

    func page(_ entries: [FollowEntry]) -> Page<AuthorSummary> {
        let items = Array(entries.prefix(limit))
        guard entries.count > limit, let last = items.last else {
            return Page(items: items.map(\.account.summary), nextCursor: nil)
        }
        let cursor = Base64URL.encode("f1|\(last.since.timeIntervalSince1970)|\(last.account.id)")
        return Page(items: items.map(\.account.summary), nextCursor: cursor)
    }
}
