import Foundation
import SpotterCore
import SpotterKit
import SpotterModels
import SpotterTestSupport
import Testing

/// A day in the app (issue 40, "what it must show"), the way an iOS app on SpotterKit lives it: the session
/// and the view models its screens bind, against a real server process, the network switched off and on
/// around them, and the analytics the day produced read as `spotter analytics` reads them.
@Suite("A day in the app")
struct DayInTheAppTests {
    static let password = "correct horse battery"

    @Test("sign in, cold start offline, kudos and a comment offline, a push, the inbox, a workout with a photo, search")
    func day() async throws {
        try await UploadQueueTests.withServerAndStorage(configure: { $0.postRules.newAccountAge = 0 }) {
            url, clock, storage in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("day-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let tokens = folder.appendingPathComponent("tokens.json")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            for lap in 1...24 { _ = try await bea.createPost(CreatePostRequest(kind: .note, text: "Tempo lap \(lap)")) }
            let yesterday = try await bea.createPost(CreatePostRequest(kind: .note, text: "Long run, 18 km"))
            let ana = try await LiveServer.person("ana", url, password: Self.password)
            _ = try await ana.follow("bea")

            // Yesterday: Ana signs in on her phone and looks at her feed and Bea's profile
            do {
                let phone = try Self.session(url, folder, tokens, SwitchableNetwork())
                _ = try await phone.client.signIn(login: "ana", password: Self.password)
                await phone.foreground()
                let feed = await FeedViewModel(kind: .following, session: phone)
                await feed.loadInitial()
                #expect(await feed.posts.first?.id == yesterday.id)
                await ProfileViewModel(username: "bea", session: phone).load()
                await phone.background()
            }

            // This morning: a cold start with no network shows yesterday's feed and Bea's profile
            let network = SwitchableNetwork()
            network.state = .down
            let phone = try Self.session(url, folder, tokens, network)
            await phone.foreground()
            let feed = await FeedViewModel(kind: .following, session: phone)
            await feed.loadInitial()
            #expect(await feed.posts.first?.id == yesterday.id)
            let profile = await ProfileViewModel(username: "bea", session: phone)
            await profile.load()
            #expect(await profile.profile?.username == "bea")

            // Offline, she gives kudos and comments: both show at once
            await feed.toggleKudos(yesterday.id)
            #expect(await feed.posts.first?.kudosedByMe == true)
            let comments = await CommentsViewModel(postID: yesterday.id, client: phone.client, outbox: phone.outbox)
            await MainActor.run { comments.draft = "Negative split?" }
            await comments.send()
            #expect(await comments.sending.map(\.text) == ["Negative split?"])

            // Back online: both land, once
            network.state = .up
            await phone.retryNow()
            _ = await phone.outbox.drain(ignoringBackoff: true)
            let landed = try await bea.post(yesterday.id)
            #expect(landed.kudosCount == 1 && landed.commentsCount == 1)
            #expect(try await phone.outbox.pending.isEmpty)

            // Bea answers; the push reaches the phone and its tap opens the post at her reply
            let asked = try #require(try await bea.comments(on: yesterday.id).items.first)
            let reply = try await bea.addComment(
                CreateCommentRequest(text: "Yes, last 5 k fastest", parentID: asked.id), on: yesterday.id)
            let row = try #require(try await phone.client.notifications().items.first)
            let userInfo: [AnyHashable: Any] = [
                "aps": ["alert": ["title": "Spotter", "body": "bea replied to your comment"]],
                "spotter": "alert", "type": "reply", "group_key": row.groupKey, "post_id": yesterday.id.description,
                "comment_id": reply.id.description, "actor": "bea",
            ]
            let push = try #require(NotificationPush(userInfo: userInfo))
            #expect(await phone.received(push) != .failed)
            #expect(await phone.respond(to: push, with: .view) == .post(yesterday.id, comment: reply.id))

            // She opens the inbox: the badge clears
            let rest = try await phone.client.createPost(CreatePostRequest(kind: .note, text: "Rest day"))
            #expect(try await bea.setKudos(true, on: rest.id).kudosCount == 1)
            let inbox = await NotificationsViewModel(session: phone)
            await inbox.loadBadge()
            #expect(await inbox.unseenCount > 0)
            await inbox.appeared()
            #expect(await inbox.unseenCount == 0)
            for group in await inbox.groups where group.unread { _ = await inbox.open(group) }
            #expect(await inbox.unreadCount == 0)
            #expect(try await phone.client.notificationCounts().unread == 0)

            // She logs a workout with a 12-megapixel photo: it is resized and shown before the server has it
            network.state = .down
            let compose = await ComposeWorkoutViewModel(
                client: phone.client, outbox: phone.outbox, uploads: phone.uploads)
            let photo = try TestImages.encode(TestImages.cornered(width: 4000, height: 3000), as: ".jpg[Q=95]")
            await MainActor.run {
                compose.title = "Evening 5k"
                compose.addExercise("Run")
                compose.setCardio(for: 0, distance: 5, durationS: 26 * 60)
                compose.addPhoto(photo, contentType: "image/jpeg", description: "Sunset on the river")
            }
            #expect(await compose.publish())
            try await SpotterSessionTests.eventually { await MainActor.run { feed.sending.count == 1 } }
            let sending = try #require(await feed.sending.first)
            let queued = try #require(try await phone.database.sendingPhoto(sending, at: 0))
            let pixels = try TestImages.decode(queued)
            #expect(max(pixels.width, pixels.height) == PhotoPreparation.maxSide)
            network.state = .up
            guard case .posted(_, let post) = try #require(await phone.uploads.drain(ignoringBackoff: true).first)
            else {
                Issue.record("the workout did not go")
                return
            }
            try await SpotterSessionTests.eventually {
                await MainActor.run { feed.sending.isEmpty && feed.posts.first?.id == post.id }
            }
            #expect(post.media.map(\.description) == ["Sunset on the river"])

            // She searches Bea's tempo laps: two pages, each lap once
            let search = await SearchViewModel(session: phone, kind: .posts)
            await MainActor.run {
                search.query = "tempo"
                search.queryChanged()
            }
            await search.settle()
            #expect(await search.results.posts.count == 20)
            #expect(await search.hasMore)
            await search.loadMore()
            #expect(Set(await search.results.posts.map(\.id)).count == 24)
            await search.selected(at: 3)
            await feed.opened(post.id)
            await phone.background()

            // And the day's analytics reached the server, as `spotter analytics` reports them
            let report = try await AnalyticsService(storage: storage, clock: clock).report(days: 1, top: 20)
            let counts = Dictionary(uniqueKeysWithValues: report.topEvents.map { ($0.name, $0.count) })
            #expect(counts["app_foreground"] == 2 && counts["app_background"] == 2, "\(counts)")
            for name in ["notification_open", "upload_success", "search_result_click", "post_tap"] {
                #expect((counts[name] ?? 0) >= 1, "\(name): \(counts)")
            }
            #expect(report.dailyActiveUsers.first?.count == 1)
        }
    }

    /// Ana's phone: the session over one folder (its database) and a token file, as an app keeps them.
    static func session(
        _ url: URL, _ folder: URL, _ tokens: URL, _ network: SwitchableNetwork
    ) throws -> SpotterSession {
        try SpotterSession(
            baseURL: url, folder: folder, tokens: FileTokenStore(path: tokens.path), transport: network, retry: .none,
            photos: PhotoPreparationTests.Vips())
    }
}
