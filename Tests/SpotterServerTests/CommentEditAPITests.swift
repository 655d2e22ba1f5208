import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// `PATCH /api/v1/posts/{id}/comments/{comment_id}`: only a comment's author changes its text, by the rules a
/// new comment follows, and open post pages hear of it.
@Suite("Editing one's own comment over HTTP")
struct CommentEditAPITests {
    @Test(
        "the author edits a comment, which is marked edited; anyone else is refused",
        arguments: StorageBackend.available)
    func authorEdits(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's post with a comment by Bea
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let post = try await api.post(ana, "Marathon done #running")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea, body: CreateCommentRequest(text: "Congarts!")
            ).decode(SpotterModels.Comment.self)
            #expect(comment.editedAt == nil)
            api.clock.advance(by: 60)

            // When Bea fixes it
            let response = try await api.call(
                .patch, "/api/v1/posts/\(post.id)/comments/\(comment.id)", token: bea,
                body: UpdateCommentRequest(text: "  Congrats!  "))

            // Then it reads back changed and edited, in its place
            #expect(response.status == .ok)
            let edited = try response.decode(SpotterModels.Comment.self)
            #expect(edited.text == "Congrats!" && edited.id == comment.id && edited.editedAt != nil)
            let listed = try await api.call(.get, "/api/v1/posts/\(post.id)/comments", token: ana)
                .decode(Page<SpotterModels.Comment>.self).items
            #expect(listed.map(\.text) == ["Congrats!"])
            #expect(listed.first?.editedAt != nil)
            #expect(
                try await api.call(.get, "/api/v1/posts/\(post.id)", token: ana).decode(Post.self).commentsCount == 1)

            // And the post's author, or anyone else, may not edit it
            let byAna = try await api.call(
                .patch, "/api/v1/posts/\(post.id)/comments/\(comment.id)", token: ana,
                body: UpdateCommentRequest(text: "Mine now"))
            #expect(byAna.status == .forbidden)
            let anonymous = try await api.call(
                .patch, "/api/v1/posts/\(post.id)/comments/\(comment.id)", body: UpdateCommentRequest(text: "x"))
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test(
        "bad text is 422 naming text; an unknown, deleted or hidden comment is 404", arguments: StorageBackend.available
    )
    func refusals(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let post = try await api.post(ana, "Leg day")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea, body: CreateCommentRequest(text: "Nice")
            ).decode(SpotterModels.Comment.self)
            let path = "/api/v1/posts/\(post.id)/comments/\(comment.id)"

            // Empty, too long and control characters, as when commenting
            for text in ["   ", String(repeating: "a", count: PostRules.commentMaxLength + 1), "bad\u{7}"] {
                let bad = try await api.call(.patch, path, token: bea, body: UpdateCommentRequest(text: text))
                #expect(bad.status == .unprocessableContent)
                #expect(try bad.problem().errors?.first?.field == "text")
            }
            let unknown = try await api.call(
                .patch, "/api/v1/posts/\(post.id)/comments/\(CommentID.generate())", token: bea,
                body: UpdateCommentRequest(text: "x"))
            #expect(unknown.status == .notFound)
            let elsewhere = try await api.post(ana, "Another")
            let wrongPost = try await api.call(
                .patch, "/api/v1/posts/\(elsewhere.id)/comments/\(comment.id)", token: bea,
                body: UpdateCommentRequest(text: "x"))
            #expect(wrongPost.status == .notFound)
            let deleted = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea, body: CreateCommentRequest(text: "Oops")
            ).decode(SpotterModels.Comment.self)
            try await api.call(.delete, "/api/v1/posts/\(post.id)/comments/\(deleted.id)", token: bea)
            let afterDelete = try await api.call(
                .patch, "/api/v1/posts/\(post.id)/comments/\(deleted.id)", token: bea,
                body: UpdateCommentRequest(text: "Back"))
            #expect(afterDelete.status == .notFound)

            // A post Bea may no longer see (Ana blocked her): 404, as for commenting
            try await api.block(ana, "bea")
            let blocked = try await api.call(.patch, path, token: bea, body: UpdateCommentRequest(text: "Still nice"))
            #expect(blocked.status == .notFound)
            #expect(
                try await api.call(.get, "/api/v1/posts/\(post.id)/comments", token: ana)
                    .decode(Page<SpotterModels.Comment>.self).items.isEmpty)
        }
    }

    @Test("an edit tells the open post page to fetch its comments again", arguments: StorageBackend.available)
    func live(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend) { api, port in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let post = try await api.post(ana, "Deadlifts #gym")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: bea, body: CreateCommentRequest(text: "Wow")
            ).decode(SpotterModels.Comment.self)
            let reader = try await PhoenixTestClient.connect(port: port, token: ana)
            _ = try await reader.join("post:\(post.id)", ref: "1")

            _ = try await api.call(
                .patch, "/api/v1/posts/\(post.id)/comments/\(comment.id)", token: bea,
                body: UpdateCommentRequest(text: "Wow, 200 kg"))

            let heard = try await reader.next { $0.event == "post_comments_updated" && $0.topic == "post:\(post.id)" }
            #expect(heard.payload["comments_count"] == .number(1))
            await reader.close()
        }
    }
}
