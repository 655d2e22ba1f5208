import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's comment editing")
struct WebCommentEditTests {
    @Test(
        "the author edits a comment from its Edit link, back to the comment, shown edited; a bad text keeps the form",
        arguments: StorageBackend.available)
    func edit(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's post and Bo's comment on it
            let (_, anaToken) = try await WebPostsTests.person("ana", api)
            var (bo, boToken) = try await WebPostsTests.person("bob", api)
            let post = try await api.post(anaToken, "Squats #gym")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: boToken, body: CreateCommentRequest(text: "Strnog!")
            ).decode(SpotterModels.Comment.self)
            let editPath = "/posts/\(post.id)/comments/\(comment.id)/edit"
            let before = try await bo.get("/posts/\(post.id)")
            #expect(before.text.contains(#"href="\#(editPath)""#))
            #expect(!before.text.contains(">edited<"))

            // When Bo opens the edit page and saves a fix
            let form = try await bo.get(editPath)
            #expect(form.status == .ok)
            #expect(form.text.contains("Strnog!</textarea>"))
            let saved = try await bo.post(editPath, [("text", "Strong!")])

            // Then he is back at the comment, which shows the new text and "edited"
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/posts/\(post.id)#comment-\(comment.id)")
            let after = try await bo.get("/posts/\(post.id)")
            #expect(after.text.contains("Strong!") && !after.text.contains("Strnog!"))
            #expect(after.text.contains(">edited<"))

            // When he empties it, the form comes back with the field marked and his text kept
            try await bo.get(editPath)
            let refused = try await bo.post(editPath, [("text", "   ")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"aria-invalid="true""#))
            let tooLong = String(repeating: "a", count: PostRules.commentMaxLength + 1)
            try await bo.get(editPath)
            let kept = try await bo.post(editPath, [("text", tooLong)])
            #expect(kept.status == .unprocessableContent && kept.text.contains(tooLong))
        }
    }

    @Test(
        "only the comment's author sees Edit or may edit; a hidden post's comment is 404",
        arguments: StorageBackend.available)
    func strangers(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Bo's comment on Ana's post
            var (ana, anaToken) = try await WebPostsTests.person("ana", api)
            var (eve, _) = try await WebPostsTests.person("eve", api)
            let boToken = try await api.user("bob")
            let post = try await api.post(anaToken, "Squats #gym")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: boToken, body: CreateCommentRequest(text: "Nice")
            ).decode(SpotterModels.Comment.self)
            let editPath = "/posts/\(post.id)/comments/\(comment.id)/edit"

            // The post's author may delete it but not edit it; nor may Eve
            let anaView = try await ana.get("/posts/\(post.id)")
            #expect(anaView.text.contains("/comments/\(comment.id)/delete"))
            #expect(!anaView.text.contains(editPath))
            #expect(try await ana.get(editPath).status == .forbidden)
            #expect(try await ana.post(editPath, [("text", "Hacked")]).status == .forbidden)
            try await eve.get("/posts/\(post.id)")
            #expect(try await eve.get(editPath).status == .forbidden)
            #expect(try await eve.post(editPath, [("text", "Hacked")]).status == .forbidden)
            #expect(try await eve.get("/posts/\(post.id)/comments/\(CommentID.generate())/edit").status == .notFound)

            // When the post turns private, its comments are not there for Eve at all
            _ = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: anaToken, body: UpdatePostRequest(visibility: .private))
            #expect(try await eve.get(editPath).status == .notFound)
            let text = try await api.call(.get, "/api/v1/posts/\(post.id)/comments", token: anaToken)
                .decode(Page<SpotterModels.Comment>.self).items.map(\.text)
            #expect(text == ["Nice"])
        }
    }
}
