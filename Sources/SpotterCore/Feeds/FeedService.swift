import Foundation
import SpotterModels

/// The feeds: Following, Global, a hashtag, and a person's own posts. Each is a page of posts the viewer may
/// see, newest first; `since` instead returns what is newer than a cursor, oldest first, for gap fill.
public struct FeedService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    let social: SocialService
    /// Fills in photo URLs for the viewer; `nil` leaves them empty (tools that show no photos).
    let links: MediaLinks?
    /// Each viewer's kept follow count, for choosing how to read their Following page.
    let followingCounts = FollowingCounts()

    /// How far back the Featured feed looks, and how many candidates it ranks.
    public static let featuredWindow: TimeInterval = 14 * 24 * 3600
    public static let featuredCandidates = 500

    /// Who may read a group's posts (`GroupPolicy`).
    let groups: GroupService

    /// `social` and `groups` are the composition root's; tools that pass none get ones that tell nobody.
    public init(
        storage: any SpotterStorage, clock: any WallClock, links: MediaLinks? = nil, social: SocialService? = nil,
        groups: GroupService? = nil
    ) {
        self.storage = storage
        self.clock = clock
        let social = social ?? SocialService(storage: storage, clock: clock)
        self.social = social
        self.groups = groups ?? GroupService(storage: storage, clock: clock, social: social)
        self.links = links
    }

    /// Trending public posts of the last two weeks, featured accounts boosted (see `FeaturedRanking`).
    ///
    /// A ranking moves as reactions come in, so its pages are positions in the ranking computed at each
    /// request: the cursor is an offset. `since` does not apply (nothing is "newer" in a ranking).
    public func featured(viewer: AccountRecord?, limit: String?, cursor: String?) async throws -> Page<Post> {
        let page = try PageRequest(limit: limit, cursor: nil, since: nil)
        let offset = try PageRequest.given(cursor).map(Self.decodeOffset) ?? 0
        let now = clock.now
        let candidates = try await storage.posts.rankingCandidates(
            viewer: viewer?.id, since: now.addingTimeInterval(-Self.featuredWindow), limit: Self.featuredCandidates)
        let ranked = FeaturedRanking.rank(candidates, now: now)
        let items = try await linked(Array(ranked.dropFirst(offset).prefix(page.limit)))
        let next = offset + items.count
        return Page(items: items, nextCursor: next < ranked.count ? Self.encodeOffset(next) : nil)
    }

    static func encodeOffset(_ offset: Int) -> String { Base64URL.encode("r1:\(offset)") }

    static func decodeOffset(_ cursor: String) throws -> Int {
        guard cursor.count <= 32, let text = Base64URL.decodeText(cursor), text.hasPrefix("r1:"),
            let offset = Int(text.dropFirst(3)), (0...featuredCandidates).contains(offset)
        else { throw SpotterError.malformed(detail: "cursor is not a cursor this server gave out.", field: "cursor") }
        return offset
    }

    public func following(viewer: AccountRecord, page: PageRequest) async throws -> Page<Post> {
        try await feed(.following, viewer: viewer, page: page)
    }

    public func global(viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post> {
        try await feed(.global, viewer: viewer, page: page)
    }

    public func tag(_ tag: String, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post> {
        // The tag as TextEntities stores it (lowercased, NFC), so any spelling of it finds its posts.
        let parsed = TextEntities.hashtags(in: "#" + tag)
        guard parsed.count == 1, let normalised = parsed.first, normalised.count == tag.count else {
            throw SpotterError.malformed(detail: "tag is not a hashtag.", field: "tag")
        }
        return try await feed(.tag(normalised), viewer: viewer, page: page)
    }

    public func author(_ username: String, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post> {
        let account = try await social.visibleAccount(username, viewer: viewer)
        return try await feed(.author(account.id), viewer: viewer, page: page)
    }

    /// A group's posts, newest first, for those who may read them (`GroupPolicy`).
    public func group(_ id: GroupID, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post> {
        _ = try await groups.readable(id, viewer: viewer)
        return try await feed(.group(id), viewer: viewer, page: page)
    }

    /// A group's "top" order (`GroupFeedRanking`): its posts of the last `groupTopWindow`, ranked for this
    /// viewer. Like Featured, its pages are positions in the ranking (the cursor is an offset).
    public func groupTop(
        _ id: GroupID, viewer: AccountRecord?, limit: String?, cursor: String?
    ) async throws
        -> Page<Post>
    {
        _ = try await groups.readable(id, viewer: viewer)
        let page = try PageRequest(limit: limit, cursor: nil, since: nil)
        let offset = try PageRequest.given(cursor).map(Self.decodeOffset) ?? 0
        let now = clock.now
        let candidates = try await storage.posts.groupRankingCandidates(
            in: id, viewer: viewer?.id, since: now.addingTimeInterval(-Self.groupTopWindow),
            limit: Self.featuredCandidates)
        var seen: PostID?
        if let viewer { seen = try await storage.groups.seenMarker(of: viewer.id, in: id) }
        let ranked = GroupFeedRanking.rank(candidates, viewer: viewer?.id, seenUpTo: seen, now: now)
        let pageIDs = Array(ranked.dropFirst(offset).prefix(page.limit))
        // Only the page's posts are read whole: reading every candidate's counts and previews was most of the
        // order's time (measured in docs/performance.md, "Group feeds").
        let byID = Dictionary(
            try await storage.posts.posts(pageIDs, viewer: viewer?.id).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        let items = try await linked(pageIDs.compactMap { byID[$0] })
        let next = offset + pageIDs.count
        return Page(items: items, nextCursor: next < ranked.count ? Self.encodeOffset(next) : nil)
    }

    /// How far back a group's "top" order looks.
    public static let groupTopWindow: TimeInterval = 30 * 24 * 3600

    private func feed(_ source: FeedQuery.Source, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Post>
    {
        var query = FeedQuery(
            source: source, before: page.cursor.map(PostID.init), after: page.since.map(PostID.init),
            limit: page.limit + 1, asOf: clock.now)
        if case .following = source, let viewer {
            let following = try await followingCounts.count(of: viewer.id) {
                try await storage.graph.counts(of: viewer.id).following
            }
            query.followsMany = following >= FeedQuery.manyFollowed
        }
        let posts = try await linked(try await storage.posts.feed(query, viewer: viewer?.id))
        return page.page(posts) { $0.id.rawValue }
    }

    private func linked(_ posts: [Post]) async throws -> [Post] {
        guard let links else { return posts }
        return try await links.linked(posts, now: clock.now)
    }
}
