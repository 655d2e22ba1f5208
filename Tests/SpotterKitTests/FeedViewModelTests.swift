import Foundation
import SpotterKit
import SpotterModels
import Testing

/// The feed view model against a real server.
@Suite("Feed view model")
struct FeedViewModelTests {
    static let password = "correct horse battery"

    @Test("pages load, kudos change at once and change back on a 403, live posts wait behind the bar")
    func feed() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            _ = try await bea.follow("ana")
            for index in 0..<25 {
                _ = try await ana.createPost(CreatePostRequest(kind: .note, text: "Run \(index) #run"))
            }
            let mine = try await bea.createPost(CreatePostRequest(kind: .note, text: "My own #run"))
            let outbox = try ActionQueue(path: nil, client: bea)
            let model = await FeedViewModel(kind: .following, client: bea, outbox: outbox)
            await model.loadInitial()
            #expect(await model.posts.count == 20)
            await model.loadMore()
            #expect(await model.posts.count == 26)
            #expect(await model.hasMore == false)

            let anas = try #require(await model.posts.first { $0.author.username == "ana" })
            await model.toggleKudos(anas.id)
            let given = try #require(await model.posts.first { $0.id == anas.id })
            #expect(given.kudosedByMe && given.kudosCount == 1)
            #expect(try await bea.post(anas.id).kudosedByMe, "it reached the server")

            // Kudos on one's own post: shown at once, refused (403), changed back with the server's words.
            await model.toggleKudos(mine.id)
            let reverted = try #require(await model.posts.first { $0.id == mine.id })
            #expect(!reverted.kudosedByMe && reverted.kudosCount == 0)
            #expect(await model.errorMessage == "Kudos are for other people's posts.")
            #expect(try await outbox.failed.isEmpty)

            let live = try await ana.createPost(CreatePostRequest(kind: .note, text: "Live #run"))
            await model.receiveLive(live)
            await model.receiveLive(live)
            #expect(await model.newPostsCount == 1)
            #expect(await model.posts.first?.id != live.id)
            await model.showNewPosts()
            #expect(await model.posts.first?.id == live.id)
            #expect(await model.newPostsCount == 0)
        }
    }
}
