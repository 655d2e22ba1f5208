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
            #expect(await model.comments.sending.isEmpty, "the refused one is taken away, not left as sending")
        }
    }

    @Test("a comment written offline shows at once as waiting, and is replaced by the server's copy when it lands")
    func commentShownBeforeConfirmation() async throws {
        try await LiveServer.run { url, _ in
            // Given Bea on Ana's post, on a phone that loses its network
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let network = SwitchableNetwork()
            let bea = SpotterClient(baseURL: url, transport: network)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            let post = try await ana.createPost(CreatePostRequest(kind: .note, text: "Long run"))
            let outbox = try ActionQueue(path: nil, client: bea)
            let model = await PostDetailViewModel(postID: post.id, client: bea, outbox: outbox)
            await model.load()

            // When she comments offline
            network.state = .down
            await MainActor.run { model.comments.draft = "Great pacing" }
            await model.comments.send()

            // Then it shows at once, marked as waiting for the network, and the draft is cleared
            #expect(await model.comments.sending.map(\.text) == ["Great pacing"])
            #expect(await model.comments.sending.first?.waitingForNetwork == true)
            #expect(await model.comments.comments.isEmpty)
            #expect(await model.comments.draft.isEmpty)

            // When the network is back and the outbox drains
            network.state = .up
            #expect(await outbox.drain(ignoringBackoff: true).count == 1)
            await model.comments.load()

            // Then the server's copy replaces it, once
            #expect(await model.comments.sending.isEmpty)
            #expect(await model.comments.comments.map(\.text) == ["Great pacing"])
            #expect(try await ana.comments(on: post.id).items.count == 1)
        }
    }

    @Test("typed pushes on the post's topic reach the screen: a kudos given elsewhere shows its count")
    func livePushes() async throws {
        try await LiveServer.run { url, _ in
            // Given Bea watching Ana's post, live
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: "correct horse battery")
            let bea = SpotterClient(baseURL: url)
            try await bea.signUp(email: "bea@example.com", username: "bea", password: "correct horse battery")
            let cai = SpotterClient(baseURL: url)
            try await cai.signUp(email: "cai@example.com", username: "cai", password: "correct horse battery")
            let post = try await ana.createPost(CreatePostRequest(kind: .note, text: "Long run #run"))
            let model = await PostDetailViewModel(
                postID: post.id, client: bea, outbox: try ActionQueue(path: nil, client: bea))
            await model.load()
            let live = RealtimeClient(baseURL: url) { try await bea.currentAccessToken() }
            let received = EventLog(live.events)
            await live.join(.post(post.id))
            try await received.wait { $0 == .connection(true) }
            // When Cai's kudos change until one change arrives (the client hears nothing of its join landing),
            // and then Cai gives kudos for good
            var landed = false
            for attempt in 0..<20 where !landed {
                _ = try? await cai.setKudos(attempt % 2 == 0, on: post.id)
                landed = (try? await received.wait(timeout: .milliseconds(250)) { $0.likes != nil }) != nil
            }
            #expect(landed)
            _ = try await cai.setKudos(false, on: post.id)
            let mark = received.all.count
            _ = try await cai.setKudos(true, on: post.id)
            let deadline = ContinuousClock.now + .seconds(5)
            var found: LikesUpdate?
            while found == nil, ContinuousClock.now < deadline {
                found = received.all.dropFirst(mark).compactMap(\.likes).first { $0.likesCount == 1 }
                if found == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            let update = try #require(found)
            // Then the push is typed, and the screen shows its count
            #expect(await model.post?.kudosCount == 0)
            await model.apply(.push(.likesUpdated(update), topic: .post(post.id)))
            #expect(await model.post?.kudosCount == 1)
            await live.signOut()
        }
    }
}

extension RealtimeEvent {
    fileprivate var likes: LikesUpdate? {
        if case .push(.likesUpdated(let likes), _) = self { return likes }
        return nil
    }
}
