import Foundation
import SpotterModels

/// Which feed to read.
public enum FeedKind: Sendable, Hashable {
    /// My posts and those of people I follow.
    case following
    /// Featured accounts' posts and trending public posts.
    case featured
    /// Public workout-related posts.
    case global
    /// Posts with a hashtag (without the `#`).
    case tag(String)
    /// One person's posts (their profile).
    case user(String)
    /// A group's posts, for its members (anyone, for an open group).
    case group(GroupID)

    var path: String {
        switch self {
        case .following: "/api/v1/feeds/following"
        case .featured: "/api/v1/feeds/featured"
        case .global: "/api/v1/feeds/global"
        case .tag(let tag): "/api/v1/feeds/tags/\(tag.pathEscaped)"
        case .user(let username): "/api/v1/users/\(username.pathEscaped)/posts"
        case .group(let id): "/api/v1/groups/\(id)/posts"
        }
    }
}

/// What `search` looks for.
public enum SearchKind: String, Sendable {
    case users, tags, posts, groups
}

/// Nothing: for calls whose success has no body (204).
struct NoContent: Decodable {}

extension SpotterClient {
    // MARK: Accounts

    /// Creates an account and signs in with it.
    @discardableResult
    public func signUp(email: String, username: String, password: String) async throws -> Account {
        return try await signingIn {
            try await self.call(
                Call(
                    method: "POST", path: "/api/v1/auth/signup",
                    body: try Self.encoder.encode(SignupRequest(email: email, username: username, password: password)),
                    authenticated: false))
        }
    }

    /// Signs in with a username or email and a password, and keeps the session in the token store.
    @discardableResult
    public func signIn(login: String, password: String) async throws -> Account {
        return try await signingIn {
            try await self.call(
                Call(
                    method: "POST", path: "/api/v1/auth/signin",
                    body: try Self.encoder.encode(SigninRequest(login: login, password: password)),
                    authenticated: false))
        }
    }

    /// Ends this login on the server and forgets it here — here even when the server can't be reached, since
    /// someone signing out offline must not stay signed in.
    public func signOut() async throws {
        _ = try? await send(Call(method: "POST", path: "/api/v1/auth/signout", idempotencyKey: Self.newKey()))
        try await tokens.clear()
        events?.clientDid(.signedOut)
    }

    /// The signed-in account, with its email address.
    public func me() async throws -> Account {
        try await call(Call(method: "GET", path: "/api/v1/me"))
    }

    /// An access token that worked a moment ago (refreshed first if the stored one had expired): what the
    /// realtime socket's token closure should return, since the socket checks it only at connect.
    public func currentAccessToken() async throws -> String {
        _ = try await me()
        guard let session = try await tokens.load() else { throw SpotterClientError.signedOut }
        return session.accessToken
    }

    /// Changes the fields given; the server checks each and names any it refuses.
    public func updateProfile(_ changes: UpdateAccountRequest, idempotencyKey: String? = nil) async throws -> Account {
        try await call(
            .change("PATCH", "/api/v1/me", body: try Self.encoder.encode(changes), key: idempotencyKey))
    }

    // MARK: People

    public func profile(_ username: String) async throws -> Profile {
        try await call(
            Call(method: "GET", path: "/api/v1/users/\(username.pathEscaped)", authenticated: await isSignedIn))
    }

    /// Follows, or asks to follow a private account (the relationship then says `requested`).
    public func follow(_ username: String, idempotencyKey: String? = nil) async throws -> Relationship {
        try await call(
            .change("POST", "/api/v1/users/\(username.pathEscaped)/follow", key: idempotencyKey))
    }

    public func unfollow(_ username: String, idempotencyKey: String? = nil) async throws -> Relationship {
        try await call(
            .change("DELETE", "/api/v1/users/\(username.pathEscaped)/follow", key: idempotencyKey))
    }

    /// Blocks (`true`) or unblocks: a block hides both people from each other everywhere.
    public func setBlocked(
        _ blocked: Bool, _ username: String, idempotencyKey: String? = nil
    ) async throws
        -> Relationship
    {
        try await call(
            .change(blocked ? "POST" : "DELETE", "/api/v1/users/\(username.pathEscaped)/block", key: idempotencyKey))
    }

    /// Mutes (`true`) or unmutes: a mute hides someone from my feeds only.
    public func setMuted(
        _ muted: Bool, _ username: String, idempotencyKey: String? = nil
    ) async throws
        -> Relationship
    {
        try await call(
            .change(muted ? "POST" : "DELETE", "/api/v1/users/\(username.pathEscaped)/mute", key: idempotencyKey))
    }

    // MARK: Feeds and posts

    /// A page of a feed, newest first. Pass the previous page's `nextCursor` as `cursor` for the next page,
    /// or a cursor as `since` for what is newer than it.
    ///
    /// ```swift
    /// var page = try await client.feed(.following, limit: 20)
    /// while let cursor = page.nextCursor { page = try await client.feed(.following, cursor: cursor) }
    /// ```
    public func feed(
        _ kind: FeedKind, cursor: String? = nil, since: String? = nil, limit: Int? = nil
    ) async throws -> Page<Post> {
        let query = Self.query(["cursor": cursor, "since": since, "limit": limit.map(String.init)])
        let authenticated = kind == .following ? true : await isSignedIn
        return try await call(Call(method: "GET", path: kind.path, query: query, authenticated: authenticated))
    }

    public func post(_ id: PostID) async throws -> Post {
        try await call(Call(method: "GET", path: "/api/v1/posts/\(id)", authenticated: await isSignedIn))
    }

    /// Publishes a note or a workout. The idempotency key makes a retried call (or a replayed outbox action)
    /// land once.
    public func createPost(_ request: CreatePostRequest, idempotencyKey: String? = nil) async throws -> Post {
        try await call(
            .change("POST", "/api/v1/posts", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    public func updatePost(
        _ id: PostID, _ request: UpdatePostRequest, idempotencyKey: String? = nil
    ) async throws
        -> Post
    {
        try await call(
            .change("PATCH", "/api/v1/posts/\(id)", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    public func deletePost(_ id: PostID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change("DELETE", "/api/v1/posts/\(id)", key: idempotencyKey))
    }

    /// Gives (`true`) or takes back (`false`) kudos; either is idempotent on the server.
    public func setKudos(_ given: Bool, on id: PostID, idempotencyKey: String? = nil) async throws -> KudosState {
        try await call(
            .change(given ? "POST" : "DELETE", "/api/v1/posts/\(id)/kudos", key: idempotencyKey))
    }

    public func comments(on id: PostID, cursor: String? = nil, limit: Int? = nil) async throws -> Page<Comment> {
        let query = Self.query(["cursor": cursor, "limit": limit.map(String.init)])
        return try await call(
            Call(method: "GET", path: "/api/v1/posts/\(id)/comments", query: query, authenticated: await isSignedIn))
    }

    public func addComment(
        _ request: CreateCommentRequest, on id: PostID, idempotencyKey: String? = nil
    ) async throws
        -> Comment
    {
        try await call(
            .change("POST", "/api/v1/posts/\(id)/comments", body: try Self.encoder.encode(request), key: idempotencyKey)
        )
    }

    // MARK: Templates

    /// Workout templates the user may use, newest first; `author` narrows to one person's.
    public func workoutTemplates(author: String? = nil, cursor: String? = nil) async throws -> Page<WorkoutTemplate> {
        let query = Self.query(["author": author, "cursor": cursor])
        return try await call(
            Call(method: "GET", path: "/api/v1/workout-templates", query: query, authenticated: await isSignedIn))
    }

    public func workoutTemplate(_ id: WorkoutTemplateID) async throws -> WorkoutTemplate {
        try await call(Call(method: "GET", path: "/api/v1/workout-templates/\(id)", authenticated: await isSignedIn))
    }

    public func createWorkoutTemplate(
        _ request: CreateWorkoutTemplateRequest, idempotencyKey: String? = nil
    )
        async throws -> WorkoutTemplate
    {
        try await call(
            .change("POST", "/api/v1/workout-templates", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    // MARK: Analytics

    /// Sends up to 100 events at once (`AnalyticsTracker` batches them for you).
    @discardableResult
    public func sendAnalytics(_ events: [AnalyticsEvent], idempotencyKey: String? = nil) async throws -> Int {
        let accepted: AnalyticsAccepted = try await call(
            .change(
                "POST", "/api/v1/analytics/events", body: try Self.encoder.encode(AnalyticsBatch(events: events)),
                key: idempotencyKey))
        return accepted.accepted
    }

    // MARK: Search

    /// One page of one kind; `cursor` is the page before's `nextCursor` (while its `hasMore`).
    public func search(_ text: String, kind: SearchKind, cursor: String? = nil) async throws -> SearchResults {
        try await call(
            Call(
                method: "GET", path: "/api/v1/search",
                query: Self.query(["q": text, "type": kind.rawValue, "cursor": cursor]),
                authenticated: await isSignedIn))
    }

    /// A fresh idempotency key.
    public nonisolated static func newKey() -> String { UUID().uuidString.lowercased() }
}

extension String {
    /// Escaped for one path segment.
    var pathEscaped: String {
        addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? self
    }
}
