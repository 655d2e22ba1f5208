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
    public var groups: [Group]

    public init(users: [AuthorSummary] = [], tags: [TagCount] = [], posts: [Post] = [], groups: [Group] = []) {
        self.users = users
        self.tags = tags
        self.posts = posts
        self.groups = groups
    }

    enum CodingKeys: String, CodingKey { case users, tags, posts, groups }

    /// `groups` came later: an answer from a server before it (or one a device kept) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        users = try container.decode([AuthorSummary].self, forKey: .users)
        tags = try container.decode([TagCount].self, forKey: .tags)
        posts = try container.decode([Post].self, forKey: .posts)
        groups = try container.decodeIfPresent([Group].self, forKey: .groups) ?? []
    }
}
