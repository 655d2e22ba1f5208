import Foundation
import SpotterModels

/// Who may join which realtime topic. Joining a topic you may not read gets an error reply, never data.
public struct TopicAccess: Sendable {
    let storage: any SpotterStorage
    /// Fills in photo URLs for the socket's user; `nil` leaves them empty.
    let links: MediaLinks?

    public init(storage: any SpotterStorage, links: MediaLinks? = nil) {
        self.storage = storage
        self.links = links
    }

    public func canJoin(_ topic: RealtimeTopic, user: AccountRecord) async throws -> Bool {
        switch topic {
        case .communityFeed: true
        case .followingFeed(let owner), .user(let owner): owner == user.id
        case .post(let id): try await storage.posts.post(id, viewer: user.id) != nil
        case .group(let id):
            if let group = try await storage.groups.find(id) {
                GroupPolicy.allows(
                    .readPosts, standing: try await storage.groups.standing(of: user.id, in: id),
                    access: group.access, suspended: user.suspendedAt != nil)
            } else {
                false
            }
        }
    }

    /// What decides whose presence `user` sees on the community feed (`PresencePolicy`).
    public func presenceRelations(of user: UserID) async throws -> PresenceRelations {
        PresenceRelations(
            hidden: try await storage.graph.blockedEitherWay(with: user),
            followedPrivate: try await storage.graph.followedPrivateAccounts(by: user))
    }

    /// What a client that was away missed on a topic, newest last: posts after the `since` cursor, or `nil`
    /// when more than `limit` arrived (the client should reload instead).
    public func missed(
        on topic: RealtimeTopic, since cursor: String, user: AccountRecord, limit: Int
    ) async throws
        -> [Post]?
    {
        let after = PostID(rawValue: try PageRequest.decode(cursor, field: "since"))
        let source: FeedQuery.Source
        switch topic {
        case .communityFeed: source = .community
        case .followingFeed: source = .following
        case .group(let id): source = .group(id)
        case .user, .post: return []
        }
        let posts = try await storage.posts.feed(
            FeedQuery(source: source, after: after, limit: limit + 1), viewer: user.id)
        guard posts.count <= limit else { return nil }
        return try await links?.linked(posts) ?? posts
    }
}
