import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("A group's feed: newest, top, and what is new since I looked")
struct GroupFeedOrderTests {
    @Test(
        "top ranks by members' reactions and what I haven't seen; the seen marker counts exactly and only moves on",
        arguments: StorageBackend.available)
    func topAndSeen(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cara = try await api.user("cara")
            let club = try await api.createGroup(ana, "Club", access: .open)
            try await api.joinGroup(bea, club)
            try await api.joinGroup(cara, club)
            // Bea posts, ten minutes later Cara does; Cara gives Bea's post kudos, and three visitors (not members)
            // give Cara's theirs
            let first = try await api.postToGroup(bea, club, "Hill repeats")
            api.clock.advance(by: 600)
            let second = try await api.postToGroup(cara, club, "Easy jog")
            try await api.kudos(cara, first)
            for name in ["sam", "tom", "uma"] { try await api.kudos(try await api.user(name), second) }

            func page(_ order: String, _ token: String) async throws -> [PostID] {
                try await api.feed("/api/v1/groups/\(club.id)/posts?order=\(order)", token: token).items.map(\.id)
            }
            #expect(try await page("newest", ana) == [second.id, first.id])
            // Then the top order weighs only members' reactions: Bea's post first
            #expect(try await page("top", ana) == [first.id, second.id])
            // And Ana has two new posts
            func group(_ token: String) async throws -> Group {
                try await api.call(.get, "/api/v1/groups/\(club.id)", token: token).decode(Group.self)
            }
            #expect(try await group(ana).newPosts == 2)
            #expect(try await group(bea).newPosts == 1, "her own post is not new to her")
            // When Ana has seen Bea's post, Cara's, unseen, weighs double and comes first
            func seen(_ post: Post, _ token: String) async throws -> TestResponse {
                try await api.call(
                    .post, "/api/v1/groups/\(club.id)/seen", token: token, body: GroupSeenRequest(upTo: post.id))
            }
            #expect(try await seen(first, ana).decode(Group.self).newPosts == 1)
            #expect(try await page("top", ana) == [second.id, first.id])
            // Seeing everything, then an older post again, leaves the marker at the newest
            #expect(try await seen(second, ana).decode(Group.self).newPosts == 0)
            #expect(try await seen(first, ana).decode(Group.self).newPosts == 0)
            // Someone else's marker is their own
            #expect(try await group(cara).newPosts == 1)
            // Only members keep a marker, and only for the group's own posts
            #expect(try await seen(first, try await api.user("vic")).status == .forbidden)
            let other = try await api.createGroup(ana, "Other", access: .open)
            let elsewhere = try await api.postToGroup(ana, other, "Elsewhere")
            let wrong = try await seen(elsewhere, ana)
            #expect(wrong.status == .unprocessableContent)
            #expect(try wrong.problem().errors?.map(\.field) == ["up_to"])
            #expect(
                try await api.call(.get, "/api/v1/groups/\(club.id)/posts?order=best", token: ana).status == .badRequest
            )
        }
    }
}
