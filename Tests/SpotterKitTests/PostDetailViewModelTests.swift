import Foundation
import SpotterKit
import SpotterModels
import Testing

@Suite("Post detail view model")
struct PostDetailViewModelTests {
    @Test("comments and replies are sent and shown; a refused one puts the draft back with the reason")
    func comments() async throws {
        try await LiveServer.run { url, _ in
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            let post = try await ana.createPost(CreatePostRequest(kind: .note, text: "Hill repeats #run"))
            let model = await PostDetailViewModel(
                postID: post.id, client: bea, outbox: try ActionQueue(path: nil, client: bea))
            await model.load()
            #expect(await model.post?.text == "Hill repeats #run")
            await MainActor.run { model.comments.draft = "How many repeats?" }
            await model.comments.send()
            let first = try #require(await model.comments.comments.first)
            #expect(first.text == "How many repeats?" && first.author.username == "bea")
            #expect(await model.post?.commentsCount == 1)
            await MainActor.run {
                model.comments.draft = "Eight!"
                model.comments.replyingTo = first.id
            }
            await model.comments.send()
            #expect(await model.comments.comments.map(\.parentID) == [nil, first.id])
            // A reply to a reply joins the thread (one level of replies).
            let reply = try #require(await model.comments.comments.last)
            await MainActor.run {
                model.comments.draft = "Nice"
                model.comments.replyingTo = reply.id
            }
            await model.comments.send()
            #expect(await model.comments.comments.map(\.parentID) == [nil, first.id, first.id])
            // A reply to a comment that isn't there is refused: the draft comes back with the server's words.
            await MainActor.run {
                model.comments.draft = "Hello?"
                model.comments.replyingTo = CommentID(rawValue: UUID())
            }
            await model.comments.send()
            #expect(await model.comments.draft == "Hello?")
            #expect(await model.comments.errorMessage != nil)
            #expect(await model.comments.comments.count == 3)
        }
    }
}
