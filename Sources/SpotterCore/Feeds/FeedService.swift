import Foundation
import SpotterModels

/// The feeds: Following, Global, a hashtag, and a person's own posts. Each is a page of posts the viewer may
/// see, newest first; `since` instead returns what is newer than a cursor, oldest first, for gap fill.
public struct FeedService: Sendable {
    let storage: any SpotterStorage
    let social: SocialService

    public init(storage: any SpotterStorage, clock: any WallClock) {
        self.storage = storage
        self.social = SocialService(storage: storage, clock: clock)
    }

    public func following(viewer: AccountRecord, page: PageRequest) async throws -> Page<Post> {
        try await feed(.following, viewer: viewer, page: page)
    }

    public func global(viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post> {
        try await feed(.global, viewer: viewer, page: page)
    }

    public func tag(_ tag: String, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post> {
        let normalised = tag.lowercased()
        guard TextEntities.hashtags(in: "#" + normalised) == [normalised] else {
            throw SpotterError.malformed(detail: "tag is not a hashtag.", field: "tag")
        }
        return try await feed(.tag(normalised), viewer: viewer, page: page)
    }

    public func author(_ username: String, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post> {
        let account = try await social.visibleAccount(username, viewer: viewer)
        return try await feed(.author(account.id), viewer: viewer, page: page)
    }

    private func feed(_ source: FeedQuery.Source, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post>
    {
        let query = FeedQuery(
            source: source, before: page.cursor.map(PostID.init), after: page.since.map(PostID.init),
            limit: page.limit + 1)
        let posts = try await storage.posts.feed(query, viewer: viewer?.id)
        return page.page(posts) { $0.id.rawValue }
    }
}
