import Foundation
import Observation
import SpotterModels

/// A person's profile and posts, with a follow button that changes at once: "Following" for a public
/// account, "Requested" for a private one, and back if the server refuses.
///
/// ```swift
/// Button(model.followTitle) { Task { await model.toggleFollow() } }
/// ```
@MainActor
@Observable
public final class ProfileViewModel {
    public let username: String
    public private(set) var profile: Profile?
    public private(set) var posts: [Post] = []
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let outbox: ActionQueue?

    public init(username: String, client: SpotterClient, outbox: ActionQueue? = nil) {
        self.username = username
        self.client = client
        self.outbox = outbox
    }

    public func load() async {
        do {
            profile = try await client.profile(username)
            posts = try await client.feed(.user(username)).items
            errorMessage = nil
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
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
            errorMessage = nil
        } catch let error as SpotterClientError where !error.isTransient {
            self.profile = before
            errorMessage = FeedViewModel.message(error)
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }
}
