import Foundation
import GRDB
import SpotterModels

/// Where posts saved from the network go in their feed.
enum FeedPlacement: Sendable {
    /// The feed's first page: it becomes the feed, in the server's order.
    case firstPage
    /// A later page: after what the feed holds.
    case nextPage
    /// Live posts the user chose to see: on top, in the order given.
    case onTop
}

/// The cached posts, their feeds and the cached profiles.
extension AppDatabase {
    /// Keeps posts from the network (and, with `feed`, places them in it). Kudos still waiting in the outbox
    /// stay shown on them.
    func save(
        _ posts: [Post], feed: FeedKind? = nil, placement: FeedPlacement = .firstPage, at date: Date? = nil
    )
        async throws
    {
        let (now, policy) = (date ?? self.now(), self.policy)
        let rows = try posts.map { ($0, try Self.json($0)) }
        try await writer.write { db in
            for (post, json) in rows { try Self.keep(post, json: json, at: now, db) }
            guard let feed else { return }
            try Self.place(posts.map(\.id.description), in: feed.cacheKey, placement, at: now, policy: policy, db)
        }
    }

    /// Keeps one post from the network, with the kudos still waiting in the outbox shown on it.
    static func keep(_ post: Post, json: String, at now: Date, _ db: Database) throws {
        // An upsert, not INSERT OR REPLACE: a replaced row would take its feed places with it (cascade).
        try db.execute(
            sql: """
                INSERT INTO posts (id, author_id, json, cached_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    author_id = excluded.author_id, json = excluded.json, cached_at = excluded.cached_at
                """,
            arguments: [post.id.description, post.author.id.description, json, now.timeIntervalSince1970])
        try reapplyPendingKudos(on: post.id, db)
    }

    /// Places kept posts in a feed (`key`, `FeedKind.cacheKey`), then applies the feed's cache rules.
    static func place(
        _ ids: [String], in key: String, _ placement: FeedPlacement, at now: Date, policy: CachePolicy,
        _ db: Database
    ) throws {
        let start: Int
        switch placement {
        case .firstPage:
            try db.execute(sql: "DELETE FROM feed_items WHERE feed = ?", arguments: [key])
            start = 0
        case .nextPage:
            start =
                (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM feed_items WHERE feed = ?", arguments: [key])
                    ?? -1) + 1
        case .onTop:
            start =
                (try Int.fetchOne(db, sql: "SELECT MIN(position) FROM feed_items WHERE feed = ?", arguments: [key])
                    ?? 0) - ids.count
        }
        for (offset, id) in ids.enumerated() {
            try db.execute(
                sql: "INSERT OR IGNORE INTO feed_items (feed, post_id, position) VALUES (?, ?, ?)",
                arguments: [key, id, start + offset])
        }
        try applyFeedRules(key, placement: placement, at: now, policy: policy, db)
    }

    /// Applies a count pushed live (`post_likes_updated`, `post_comments_updated`) to the kept post, so every
    /// screen showing it follows; returns the post it is about, nil for any other push. The server counts
    /// without a kudos still in the outbox, so that one is counted again on top.
    @discardableResult
    func applyCounts(_ push: RealtimePush) async throws -> PostID? {
        switch push {
        case .likesUpdated(let likes):
            try await writer.write { db in
                try Self.updatePost(likes.id, db) { post in
                    post.kudosCount = likes.likesCount
                    post.kudosPreview = post.kudosPreview.filter { likes.likedByUserIDs.contains($0.id) }
                }
                guard let given = try Self.pendingKudos(on: likes.id, db) else { return }
                try Self.updatePost(likes.id, db) { post in
                    post.kudosedByMe = !given
                    Self.apply(kudos: given, to: &post)
                }
            }
            return likes.id
        case .commentsUpdated(let comments):
            try await updatePost(comments.id) { $0.commentsCount = comments.commentsCount }
            return comments.id
        default:
            return nil
        }
    }

    /// Changes a cached post, if it is kept (counts pushed live, say).
    func updatePost(_ id: PostID, _ change: @escaping @Sendable (inout Post) -> Void) async throws {
        try await writer.write { db in try Self.updatePost(id, db, change) }
    }

    /// A feed as kept, in its order, up to `limit` posts.
    func feed(_ kind: FeedKind, limit: Int = .max) async throws -> [Post] {
        try await writer.read { db in try Self.feed(kind, limit: limit, db) }
    }

    // MARK: Observed reads

    func readFeed(_ kind: FeedKind) async throws -> Revisioned<[Post]> {
        try await writer.read { db in try Revisioned.read(db) { try Self.feed(kind, limit: .max, $0) } }
    }

    /// One post as kept (nil until it is), for a screen; with the revision it was read at.
    func observePost(_ id: PostID) -> AsyncValueObservation<Revisioned<Post?>> {
        ValueObservation.tracking { db in try Revisioned.read(db) { try Self.post(id, $0) } }.values(in: writer)
    }

    func readPost(_ id: PostID) async throws -> Revisioned<Post?> {
        try await writer.read { db in try Revisioned.read(db) { try Self.post(id, $0) } }
    }

    // MARK: Profiles

    /// A kept profile and when it was fetched.
    func profile(_ username: String) async throws -> (profile: Profile, fetchedAt: Date)? {
        let kept = try await writer.read { db -> (json: String, fetchedAt: Double)? in
            try Row.fetchOne(
                db, sql: "SELECT json, fetched_at FROM profiles WHERE username = ?",
                arguments: [username.lowercased()]
            ).map { ($0[0], $0[1]) }
        }
        guard let kept, let profile = try? Self.decode(Profile.self, kept.json) else { return nil }
        return (profile, Date(timeIntervalSince1970: kept.fetchedAt))
    }

    func save(_ profile: Profile, username: String, fetchedAt: Date) async throws {
        let json = String(decoding: try SpotterClient.encoder.encode(profile), as: UTF8.self)
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO profiles (username, json, fetched_at) VALUES (?, ?, ?)",
                arguments: [username.lowercased(), json, fetchedAt.timeIntervalSince1970])
        }
    }

    // MARK: Inside a transaction

    static func updatePost(_ id: PostID, _ db: Database, _ change: (inout Post) -> Void) throws {
        guard var post = try post(id, db) else { return }
        let before = post
        change(&post)
        guard post != before else { return }
        try db.execute(
            sql: "UPDATE posts SET json = ? WHERE id = ?",
            arguments: [String(decoding: try SpotterClient.encoder.encode(post), as: UTF8.self), id.description])
    }

    static func post(_ id: PostID, _ db: Database) throws -> Post? {
        try String.fetchOne(db, sql: "SELECT json FROM posts WHERE id = ?", arguments: [id.description])
            .flatMap { try? decode(Post.self, $0) }
    }

    static func feed(_ kind: FeedKind, limit: Int, _ db: Database) throws -> [Post] {
        try String.fetchAll(
            db,
            sql: """
                SELECT p.json FROM feed_items f JOIN posts p ON p.id = f.post_id
                WHERE f.feed = ? ORDER BY f.position, p.id DESC LIMIT ?
                """, arguments: [kind.cacheKey, limit]
        )
        .compactMap { try? decode(Post.self, $0) }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try SpotterClient.decoder.decode(type, from: Data(json.utf8))
    }
}

extension FeedKind {
    /// The feed's name in the cache.
    var cacheKey: String {
        switch self {
        case .following: "following"
        case .featured: "featured"
        case .global: "global"
        case .tag(let tag): "tag:\(tag.lowercased())"
        case .user(let username): "user:\(username.lowercased())"
        case .group(let id): "group:\(id)"
        }
    }
}
