import Foundation
import Observation
import SpotterModels

/// A person's profile and posts, offline first (issue 40, item 7): the profile and posts kept in the client
/// database show at once (a cold start offline shows what was last seen), the profile is fetched again once
/// it is a day old (`CachePolicy.profileFreshness`) or on pull to refresh, and the posts are a feed like any
/// other (`FeedViewModel` of `.user(username)`: kudos at once, more, the same freshness rule). The follow
/// button changes at once: "Following" for a public account, "Requested" for a private one, and back if the
/// server refuses.
///
/// ```swift
/// Button(model.followTitle) { Task { await model.toggleFollow() } }
///     .task { await model.load() }
///     .refreshable { await model.refresh() }
/// ```
@MainActor
@Observable
public final class ProfileViewModel {
    public let username: String
    public private(set) var profile: Profile?
    /// The person's posts, as kept (with an outbox) or as last fetched.
    public var posts: [Post] { postsFeed?.posts ?? fetchedPosts }
    /// The posts' own screen model, for kudos and "more" (nil without an outbox).
    public let postsFeed: FeedViewModel?
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue?
    private var fetchedPosts: [Post] = []
    private var database: AppDatabase? { outbox?.database }

    /// - Parameter outbox: where follows go, and whose database keeps the profile and posts; without one the
    ///   screen reads the network only.
    public init(username: String, client: SpotterClient, outbox: ActionQueue? = nil) {
        self.username = username
        self.client = client
        self.outbox = outbox
        postsFeed = outbox.map { FeedViewModel(kind: .user(username), client: client, outbox: $0) }
    }

    /// The session's: its client, outbox and database.
    public convenience init(username: String, session: SpotterSession) {
        self.init(username: username, client: session.client, outbox: session.outbox)
    }

    /// The kept profile and posts at once; the profile from the network if the kept one is a day old.
    public func load() async {
        if let database, let kept = try? await database.profile(username) {
            profile = kept.profile
            if database.now().timeIntervalSince(kept.fetchedAt) < database.policy.profileFreshness {
                await postsFeed?.loadInitial()
                return
            }
        }
        await fetch()
        await postsFeed?.loadInitial()
    }

    /// Pull to refresh: the profile and the first page of posts, from the network.
    public func refresh() async {
        await fetch()
        await postsFeed?.refresh()
    }

    private func fetch() async {
        do {
            let fetched = try await client.profile(username)
            profile = fetched
            try await keep(fetched)
            if postsFeed == nil { fetchedPosts = try await client.feed(.user(username)).items }
            errorMessage = nil
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func keep(_ profile: Profile) async throws {
        guard let database else { return }
        try await database.save(profile, username: username, fetchedAt: database.now())
    }

    /// The follow button's words.
    public var followTitle: String {
        switch profile?.relationship?.following ?? FollowState.none {
        case .none: "Follow"
        case .requested: "Requested"
        case .following: "Following"
        }
    }

    /// Follows (or asks to), or unfollows (or withdraws the request), showing the result at once.
    public func toggleFollow() async {
        guard let profile, let relationship = profile.relationship else { return }
        let before = profile
        let follow = relationship.following == FollowState.none
        self.profile?.relationship?.following = follow ? (profile.privacy == .private ? .requested : .following) : .none
        if relationship.following == .following || (follow && profile.privacy != .private) {
            self.profile?.followersCount += follow ? 1 : -1
        }
        let action: Action = follow ? .follow(username) : .unfollow(username)
        do {
            if let outbox {
                let queued = try await outbox.enqueue(action)
                for outcome in await outbox.drain() {
                    guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                    try? await outbox.discard(refused.id)
                    self.profile = before
                    errorMessage = problem.detail ?? problem.title
                    return
                }
            } else {
                let relationship = follow ? try await client.follow(username) : try await client.unfollow(username)
                self.profile?.relationship = relationship
            }
            if let shown = self.profile { try? await keep(shown) }
            errorMessage = nil
        } catch let error as SpotterClientError where !error.isTransient {
            self.profile = before
            errorMessage = FeedViewModel.message(error)
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }
}
