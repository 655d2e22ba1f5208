import Foundation

/// A hashtag and how many posts use it.
public struct TagCount: Codable, Sendable, Equatable {
    public var tag: String
    public var postsCount: Int

    public init(tag: String, postsCount: Int) {
        self.tag = tag
        self.postsCount = postsCount
    }

    enum CodingKeys: String, CodingKey {
        case tag
        case postsCount = "posts_count"
    }
}

/// What `GET /api/v1/search` finds; the kinds not asked for by `type` are empty.
public struct SearchResults: Codable, Sendable, Equatable {
    public var users: [AuthorSummary]
    public var tags: [TagCount]
    public var posts: [Post]

    public init(users: [AuthorSummary] = [], tags: [TagCount] = [], posts: [Post] = []) {
        self.users = users
        self.tags = tags
        self.posts = posts
    }
}
