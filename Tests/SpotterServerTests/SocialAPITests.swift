import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Profiles and the social graph over HTTP")
struct SocialAPITests {
    @Test("a profile shows its fields and counts; PATCH /me checks every field", arguments: StorageBackend.available)
    func profiles(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let updated = try await api.call(
                .patch, "/api/v1/me", token: ana,
                body: UpdateAccountRequest(bio: "Powerlifter", units: .lb, timeZone: "Europe/Berlin"))
            #expect(updated.status == .ok)
            let bad = try await api.call(
                .patch, "/api/v1/me", token: ana,
                body: UpdateAccountRequest(displayName: "", avatarURL: "javascript:alert(1)", timeZone: "Mars/Base"))
            #expect(bad.status == .unprocessableContent)
            #expect(Set(try bad.problem().errors?.map(\.field) ?? []) == ["display_name", "avatar_url", "time_zone"])
            try await api.post(ana, "first")
            let bea = try await api.user("bea")
            try await api.follow(bea, "ana")
            let profile = try await api.call(.get, "/api/v1/users/ANA").decode(Profile.self)
            #expect(profile.bio == "Powerlifter")
            #expect(profile.units == .lb)
            #expect(profile.timeZone == "Europe/Berlin")
            #expect(profile.followersCount == 1)
            #expect(profile.postsCount == 1)
            #expect(profile.relationship == nil)
            let seenByBea = try await api.call(.get, "/api/v1/users/ana", token: bea).decode(Profile.self)
            #expect(seenByBea.relationship?.following == .following)
            #expect(try await api.call(.get, "/api/v1/users/nobody").status == .notFound)
        }
    }

    @Test("a private account approves follow requests before anything shows", arguments: StorageBackend.available)
    func privateAccounts(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given a private account with a post
            let ana = try await api.user("ana")
            _ = try await api.call(.patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(privacy: .private))
            let secret = try await api.post(ana, "only for friends")
            #expect(secret.visibility == .followers)
            let bea = try await api.user("bea")
            // When Bea asks to follow
            #expect(try await api.follow(bea, "ana").following == .requested)
            // Then she sees nothing yet
            #expect(try await api.call(.get, "/api/v1/posts/\(secret.id)", token: bea).status == .notFound)
            #expect(try await api.feed("/api/v1/users/ana/posts", token: bea).items.isEmpty)
            #expect(try await api.call(.get, "/api/v1/users/ana/followers", token: bea).status == .forbidden)
            // And Ana sees the request, approves it, and Bea sees the post
            let requests = try await api.call(.get, "/api/v1/me/follow-requests", token: ana).decode(
                Page<AuthorSummary>.self)
            #expect(requests.items.map(\.username) == ["bea"])
            #expect(
                try await api.call(.post, "/api/v1/me/follow-requests/bea/approve", token: ana).status == .noContent)
            #expect(try await api.call(.get, "/api/v1/posts/\(secret.id)", token: bea).status == .ok)
            #expect(try await api.feed("/api/v1/feeds/following", token: bea).items.map(\.id) == [secret.id])
            // A denied request leaves nothing behind
            let cai = try await api.user("cai")
            try await api.follow(cai, "ana")
            #expect(try await api.call(.post, "/api/v1/me/follow-requests/cai/deny", token: ana).status == .noContent)
            let relation = try await api.call(.get, "/api/v1/users/ana", token: cai).decode(Profile.self).relationship
            #expect(relation?.following == FollowState.none)
            #expect(try await api.call(.post, "/api/v1/me/follow-requests/cai/approve", token: ana).status == .notFound)
        }
    }

    @Test("a block hides both people from each other everywhere", arguments: StorageBackend.available)
    func blocks(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let troll = try await api.user("troll")
            let bea = try await api.user("bea")
            try await api.follow(troll, "ana")
            let anaPost = try await api.post(ana, "leg day #legday")
            _ = try await api.post(troll, "troll post #legday")
            _ = try await api.call(.post, "/api/v1/posts/\(anaPost.id)/kudos", token: troll)
            _ = try await api.call(
                .post, "/api/v1/posts/\(anaPost.id)/comments", token: troll, body: CreateCommentRequest(text: "lol"))
            _ = try await api.call(
                .post, "/api/v1/posts/\(anaPost.id)/comments", token: bea, body: CreateCommentRequest(text: "great"))
            // When Ana blocks the troll
            let relation = try await api.call(.post, "/api/v1/users/troll/block", token: ana).decode(Relationship.self)
            #expect(relation.blocking && !relation.followedBy)
            // Then neither sees the other, in any feed, profile, post, count or list
            for (viewer, other, otherName) in [(ana, troll, "troll"), (troll, ana, "ana")] {
                _ = other
                #expect(try await api.call(.get, "/api/v1/users/\(otherName)", token: viewer).status == .notFound)
                #expect(try await api.call(.get, "/api/v1/users/\(otherName)/posts", token: viewer).status == .notFound)
                for feed in ["/api/v1/feeds/global", "/api/v1/feeds/tags/legday", "/api/v1/feeds/following"] {
                    let authors = try await api.feed(feed, token: viewer).items.map(\.author.username)
                    #expect(!authors.contains(otherName), "\(feed)")
                }
            }
            #expect(try await api.call(.get, "/api/v1/posts/\(anaPost.id)", token: troll).status == .notFound)
            let seen = try await api.call(.get, "/api/v1/posts/\(anaPost.id)", token: ana).decode(Post.self)
            #expect(seen.kudosCount == 0)
            #expect(seen.commentsCount == 1)
            let comments = try await api.call(.get, "/api/v1/posts/\(anaPost.id)/comments", token: ana)
                .decode(Page<SpotterModels.Comment>.self)
            #expect(comments.items.map(\.text) == ["great"])
            #expect(try await api.call(.post, "/api/v1/users/ana/follow", token: troll).status == .notFound)
            // Unblocking restores visibility but not the follow.
            _ = try await api.call(.delete, "/api/v1/users/troll/block", token: ana)
            #expect(try await api.call(.get, "/api/v1/users/troll", token: ana).status == .ok)
        }
    }

    @Test("a mute hides someone from my feeds but not from their profile", arguments: StorageBackend.available)
    func mutes(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let loud = try await api.user("loud")
            try await api.follow(ana, "loud")
            _ = try await api.post(loud, "so many posts #gym")
            #expect(try await api.call(.post, "/api/v1/users/loud/mute", token: ana).decode(Relationship.self).muting)
            #expect(try await api.feed("/api/v1/feeds/following", token: ana).items.isEmpty)
            #expect(try await api.feed("/api/v1/feeds/global", token: ana).items.isEmpty)
            #expect(try await api.feed("/api/v1/users/loud/posts", token: ana).items.count == 1)
            _ = try await api.call(.delete, "/api/v1/users/loud/mute", token: ana)
            #expect(try await api.feed("/api/v1/feeds/following", token: ana).items.count == 1)
        }
    }

    @Test("follower lists page newest first and can't follow oneself", arguments: StorageBackend.available)
    func lists(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            for name in ["bea", "cai", "dee"] {
                let token = try await api.user(name)
                try await api.follow(token, "ana")
                api.clock.advance(by: 1)
            }
            let first = try await api.call(.get, "/api/v1/users/ana/followers?limit=2").decode(Page<AuthorSummary>.self)
            #expect(first.items.map(\.username) == ["dee", "cai"])
            let cursor = try #require(first.nextCursor)
            let second = try await api.call(.get, "/api/v1/users/ana/followers?limit=2&cursor=\(cursor)")
                .decode(Page<AuthorSummary>.self)
            #expect(second.items.map(\.username) == ["bea"])
            #expect(second.nextCursor == nil)
            let following = try await api.call(.get, "/api/v1/users/bea/following").decode(Page<AuthorSummary>.self)
            #expect(following.items.map(\.username) == ["ana"])
            #expect(try await api.call(.post, "/api/v1/users/ana/follow", token: ana).status == .unprocessableContent)
            #expect(try await api.call(.get, "/api/v1/users/ana/followers?cursor=garbage").status == .badRequest)
        }
    }
}
