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
    /// More of the one kind asked for (`type`) follow: ask again with `next_cursor`. False when all four kinds
    /// were searched (each is its first page).
    public var hasMore: Bool
    /// The next page of the kind asked for, while `has_more`.
    public var nextCursor: String?

    public init(
        users: [AuthorSummary] = [], tags: [TagCount] = [], posts: [Post] = [], groups: [Group] = [],
        hasMore: Bool = false, nextCursor: String? = nil
    ) {
        self.users = users
        self.tags = tags
        self.posts = posts
        self.groups = groups
        self.hasMore = hasMore
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case users, tags, posts, groups
        case hasMore = "has_more"
        case nextCursor = "next_cursor"
    }

    /// `groups` and the paging came later: an answer from a server before them (or one a device kept) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        users = try container.decode([AuthorSummary].self, forKey: .users)
        tags = try container.decode([TagCount].self, forKey: .tags)
        posts = try container.decode([Post].self, forKey: .posts)
        groups = try container.decodeIfPresent([Group].self, forKey: .groups) ?? []
        hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore) ?? false
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    }
}

/// A search page's cursor: the kind searched and how many of its results came before, wrapped so clients treat
/// it as opaque. Search results are ranked, not ordered by id, so the page boundary is a place in the ranking.
public enum SearchCursor {
    /// How far into a ranking pages go: past this, a search is better made narrower.
    public static let maxOffset = 200

    public static func at(_ offset: Int, of kind: String) -> String { Base64URL.encode("s1:\(kind):\(offset)") }

    /// The place inside a cursor for `kind`, or nil if it is not one.
    public static func offset(in cursor: String, of kind: String) -> Int? {
        guard cursor.count <= 64, let text = Base64URL.decodeText(cursor) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "s1", parts[1] == kind, let offset = Int(parts[2]),
            (1...maxOffset).contains(offset)
        else { return nil }
        return offset
    }
}
