import Foundation
import SpotterKit
import SpotterModels
import Testing

/// Connectivity and sign-in state as an app's chrome shows them (issue 40, item 8), against a real server: an
/// offline banner with Retry that drains the outbox and refreshes when the network is back, and a login the
/// server ended that asks to sign in again.
@Suite("Session status")
struct SessionStatusTests {
    static let password = "correct horse battery"

    /// Waits for the next status from `updates` that `condition` accepts (updates are pushed, never polled).
    static func next(
        _ updates: AsyncStream<SessionStatus>, where condition: (SessionStatus) -> Bool
    ) async -> SessionStatus? {
        for await status in updates where condition(status) { return status }
        return nil
    }

    @Test("offline shows a banner; the network back drains the outbox and refreshes the feed, and the banner goes")
    func offlineBanner() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana signed in, following Bea, with her feed on screen
            let network = SwitchableNetwork()
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
            let status = await SessionStatusViewModel(session: session)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            #expect(session.status.auth == .signedIn)
            #expect(session.status.account?.username == "ana")
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            _ = try await session.client.follow("bea")
            let first = try await bea.createPost(CreatePostRequest(kind: .note, text: "Morning 5k"))
            let feed = await FeedViewModel(kind: .following, session: session)
            await feed.loadInitial()
            #expect(session.status.connectivity == .online)

            // When the network goes and she gives kudos
            network.state = .down
            await feed.toggleKudos(first.id)
            // Then the app knows it is offline and the banner says so; the kudos shows
            #expect(session.status.connectivity == .offline)
            let updates = session.statusUpdates()
            #expect(await Self.next(updates) { $0.connectivity == .offline } != nil)
            await status.retry()
            #expect(await status.offlineBanner != nil)
            #expect(await feed.posts.first?.kudosedByMe == true)

            // When Bea posts meanwhile and the network is back, and Ana taps Retry
            let second = try await bea.createPost(CreatePostRequest(kind: .note, text: "Evening swim"))
            network.state = .up
            await status.retry()

            // Then the banner goes, the kudos lands once, and the kept feed has Bea's new post
            #expect(await status.offlineBanner == nil)
            #expect(await status.connectivity == .online)
            #expect(try await bea.post(first.id).kudosCount == 1)
            #expect(try await session.outbox.pending.isEmpty)
            let kept = await FeedViewModel(kind: .following, session: session)
            network.state = .down
            await kept.loadInitial()
            #expect(await kept.posts.map(\.id).contains(second.id))
        }
    }

    @Test("a login the server ended reads as expired, and signing in again as signed in")
    func expiredLogin() async throws {
        try await LiveServer.run { url, _ in
            // Given Ana's login on this phone, ended from another device (her password changed there)
            let tokens = MemoryTokenStore()
            let session = try SpotterSession(baseURL: url, folder: nil, tokens: tokens, retry: .none)
            let status = await SessionStatusViewModel(session: session)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let elsewhere = SpotterClient(baseURL: url)
            try await elsewhere.signIn(login: "ana", password: Self.password)
            try await elsewhere.changePassword(current: Self.password, new: "another horse battery")
            // When the phone next asks the server anything
            _ = try? await session.client.me()
            // Then she is asked to sign in again
            #expect(session.status.auth == .expired)
            let updates = session.statusUpdates()
            #expect(await Self.next(updates) { $0.auth == .expired } != nil)
            // When a sign-in fails, it is still expired; when it succeeds, signed in
            _ = try? await session.client.signIn(login: "ana", password: Self.password)
            #expect(session.status.auth == .expired)
            try await session.client.signIn(login: "ana", password: "another horse battery")
            #expect(session.status.auth == .signedIn)
            #expect(await Self.next(updates) { $0.auth == .signedIn } != nil)
            _ = status
        }
    }
}
