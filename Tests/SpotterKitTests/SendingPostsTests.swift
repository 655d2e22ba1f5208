import Foundation
import SpotterKit
import SpotterModels
import Testing

/// Posts that show at once (issue 40, item 6; POWR's "local update before confirmation", Nova's upload flow): a
/// post made on the phone is in its feeds as sending before the server has it, the server's copy takes its
/// place once, and a refusal sets it aside with the server's reason. Through the session and the view models a
/// screen binds, against a real server process.
@Suite("Sending posts")
struct SendingPostsTests {
    static let password = "correct horse battery"

    /// Ana's session on a network the test switches, signed up, the session knowing who she is.
    static func ana(_ url: URL, _ network: SwitchableNetwork) async throws -> SpotterSession {
        let session = try SpotterSession(
            baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
        try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
        await session.maintain()
        return session
    }

    @Test(
        "a workout logged offline shows at once in Following and on her profile, and the server's copy takes its place once"
    )
    func workoutShowsBeforeConfirmation() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's Following feed and profile on screen, and no network
            let network = SwitchableNetwork()
            let session = try await Self.ana(url, network)
            let following = await FeedViewModel(kind: .following, session: session)
            let profile = await FeedViewModel(kind: .user("ana"), session: session)
            let tagged = await FeedViewModel(kind: .tag("run"), session: session)
            for feed in [following, profile, tagged] { await feed.loadInitial() }
            network.state = .down

            // When she logs a run
            let compose = await ComposeWorkoutViewModel(client: session.client, outbox: session.outbox)
            await MainActor.run {
                compose.title = "Easy 5k"
                compose.type = .cardio
                compose.text = "Recovery #run"
                compose.addExercise("Run")
                compose.setCardio(for: 0, distance: 5, durationS: 28 * 60)
            }
            #expect(await compose.publish())

            // Then both feeds show it as sending, waiting for the network, before any server has it
            try await SpotterSessionTests.eventually {
                await MainActor.run { following.sending.count == 1 && profile.sending.count == 1 }
            }
            let sending = try #require(await following.sending.first)
            #expect(sending.request.workout?.title == "Easy 5k")
            #expect(sending.waitingForNetwork)
            #expect(await MainActor.run { following.posts.isEmpty && profile.posts.isEmpty })
            #expect(await tagged.sending.isEmpty, "a hashtag's feed is the server's to rank")

            // When the network is back and the outbox drains
            network.state = .up
            #expect(await session.outbox.drain(ignoringBackoff: true).count == 1)

            // Then the server's copy stands in its place, in both feeds, once
            for feed in [following, profile] {
                try await SpotterSessionTests.eventually {
                    await MainActor.run { feed.sending.isEmpty && feed.posts.map(\.workout?.title) == ["Easy 5k"] }
                }
            }
            let posted = try await session.client.feed(.user("ana")).items
            #expect(posted.count == 1)
            #expect(await following.posts.map(\.id) == posted.map(\.id))
            // And a refresh from the server agrees with what was shown
            await following.refresh()
            #expect(await following.posts.map(\.id) == posted.map(\.id))
        }
    }

    @Test("a post the server refuses later leaves the sending list for not sent, with the server's reason")
    func refusedIsSetAside() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given a note far over the length limit, written offline
            let network = SwitchableNetwork()
            let session = try await Self.ana(url, network)
            let following = await FeedViewModel(kind: .following, session: session)
            await following.loadInitial()
            network.state = .down
            let tooLong = String(repeating: "long run ", count: 2_000)
            try await session.outbox.enqueue(.createPost(CreatePostRequest(kind: .note, text: tooLong)))
            try await SpotterSessionTests.eventually { await following.sending.count == 1 }

            // When the network is back and the server refuses it
            network.state = .up
            let outcomes = await session.outbox.drain(ignoringBackoff: true)
            guard case .refused = try #require(outcomes.first) else {
                Issue.record("expected a refusal, got \(outcomes)")
                return
            }

            // Then it is no longer sending, and not sent says why, naming the field
            try await SpotterSessionTests.eventually {
                await MainActor.run { following.sending.isEmpty && following.notSent.count == 1 }
            }
            let refused = try #require(await following.notSent.first)
            #expect(refused.refusal?.contains("text") == true, "\(refused.refusal ?? "")")
            #expect(await following.posts.isEmpty)

            // When she retries it as it is, it is refused again; when she discards it, it is gone
            await following.retry(refused)
            #expect(await following.notSent.count == 1)
            await following.discard(refused)
            #expect(await MainActor.run { following.notSent.isEmpty && following.sending.isEmpty })
            #expect(try await session.outbox.pending.isEmpty)
            #expect(try await session.outbox.failed.isEmpty)
            #expect(try await session.client.feed(.user("ana")).items.isEmpty)
        }
    }

    @Test("a group post with a photo shows in the group's feed with its photo before the upload is done")
    func photoPostShowsBeforeUpload() async throws {
        try await UploadQueueTests.withServer(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's club feed on screen, and no network
            let network = SwitchableNetwork()
            let session = try await Self.ana(url, network)
            let club = try await session.client.createGroup(CreateGroupRequest(name: "Track club", access: .open))
            let model = await GroupFeedViewModel(groupID: club.id, session: session)
            let following = await FeedViewModel(kind: .following, session: session)
            await model.loadInitial()
            await following.loadInitial()
            network.state = .down

            // When she posts to it with a photo
            let compose = await ComposeWorkoutViewModel(
                client: session.client, outbox: session.outbox, uploads: session.uploads)
            let jpeg = try UploadQueueTests.jpeg()
            await MainActor.run {
                compose.title = "Intervals"
                compose.addExercise("Run")
                compose.setCardio(for: 0, distance: 6, durationS: 30 * 60)
                compose.addPhoto(jpeg, contentType: "image/jpeg", description: "Lane 4")
                compose.groupID = club.id
            }
            #expect(await compose.publish())

            // Then the group's feed shows it as sending, with the photo's bytes to draw, and Following too
            try await SpotterSessionTests.eventually {
                await MainActor.run { model.sending.count == 1 && following.sending.count == 1 }
            }
            let sending = try #require(await model.sending.first)
            #expect(sending.photos.map(\.description) == ["Lane 4"])
            let bytes = try #require(try await session.database.sendingPhoto(sending, at: 0))
            #expect(bytes.prefix(2) == Data([0xFF, 0xD8]), "a JPEG, as queued")
            #expect(sending.waitingForNetwork)

            // When the network is back and the upload goes through
            network.state = .up
            let outcomes = await session.uploads.drain(ignoringBackoff: true)
            guard case .posted(_, let post) = try #require(outcomes.first) else {
                Issue.record("expected the post, got \(outcomes)")
                return
            }

            // Then the server's copy, its photo attached, takes the sending one's place in both feeds
            try await SpotterSessionTests.eventually {
                await MainActor.run {
                    model.sending.isEmpty && model.posts.map(\.id) == [post.id] && following.sending.isEmpty
                        && following.posts.map(\.id) == [post.id]
                }
            }
            #expect(await model.posts.first?.media.map(\.description) == ["Lane 4"])
            #expect(try await session.client.feed(.group(club.id)).items.map(\.id) == [post.id])
        }
    }
}
