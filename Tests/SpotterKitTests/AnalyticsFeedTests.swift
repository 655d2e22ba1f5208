import Foundation
import NIOConcurrencyHelpers
import SpotterCore
import SpotterKit
import SpotterModels
import Testing

/// Analytics that something feeds (issue 40, item 9): the session and the view models track the Nova seed's
/// events with the device context, and an opt-out stops them.
@Suite("Analytics fed by the app")
struct AnalyticsFeedTests {
    static let password = "correct horse battery"

    @Test(
        "foreground, a post tap, a notification opened, a search result and background reach the server, each with the device context"
    )
    func sessionAndScreensTrack() async throws {
        try await LiveServer.runWithStorage(configure: { $0.postRules.newAccountAge = 0 }) { url, clock, storage in
            // Given Bea's app (version 1.4.0 on an iPhone) with a notification from Ana waiting
            let transport = AnalyticsRecorder()
            let session = try SpotterSession(
                baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: transport,
                analyticsContext: AnalyticsContext(platform: "ios", appVersion: "1.4.0", device: "iPhone15,2"))
            try await session.client.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let ana = SpotterClient(baseURL: url)
            try await ana.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let post = try await session.client.createPost(CreatePostRequest(kind: .note, text: "Track session"))
            _ = try await ana.setKudos(true, on: post.id)

            // When she opens the app, taps a post, opens the notification, taps a search result and leaves
            await session.foreground()
            let feed = await FeedViewModel(kind: .following, session: session)
            await feed.opened(post.id)
            let inbox = await NotificationsViewModel(session: session)
            await inbox.appeared()
            let kudos = try #require(await inbox.groups.first)
            _ = await inbox.open(kudos)
            let search = await SearchViewModel(client: session.client, analytics: session.analytics)
            await search.selected(at: 0)
            await session.background()

            // Then the server has each of the seed's events, once
            let report = try await AnalyticsService(storage: storage, clock: clock).report(days: 1, top: 20)
            let counts = Dictionary(uniqueKeysWithValues: report.topEvents.map { ($0.name, $0.count) })
            for name in ["app_foreground", "post_tap", "notification_open", "search_result_click", "app_background"] {
                #expect(counts[name] == 1, "\(name): \(counts)")
            }
            // And every event carried the device context and one install id, and nothing that names her
            let events = transport.events
            #expect(events.count == 5)
            #expect(events.allSatisfy { $0.properties["platform"] == "ios" && $0.properties["app_version"] == "1.4.0" })
            #expect(events.allSatisfy { $0.properties["device"] == "iPhone15,2" })
            #expect(Set(events.compactMap { $0.properties["install_id"] }).count == 1)
            #expect(!events.contains { $0.properties.values.contains { $0.contains("bea") } })
            #expect(events.first { $0.name == "notification_open" }?.properties["type"] == "kudos")
            await session.signOut()
        }
    }

    @Test("an opt-out drops what waits and tracks nothing more; opting in again tracks anew")
    func optOut() async throws {
        try await LiveServer.runWithStorage { url, clock, storage in
            // Given Bea's tracker with two events waiting
            let client = SpotterClient(baseURL: url)
            try await client.signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let tracker = AnalyticsTracker(database: try AppDatabase(path: nil), client: client)
            await tracker.track("app_foreground")
            await tracker.track("post_tap")
            #expect(await tracker.waiting == 2)

            // When she opts out, and the app goes on tracking and flushing
            try await tracker.setOptedOut(true)
            await tracker.track("post_tap")
            await tracker.flush()

            // Then nothing waited, nothing reached the server, and the choice is kept
            #expect(await tracker.waiting == 0)
            #expect(try await AnalyticsService(storage: storage, clock: clock).report(days: 1).topEvents.isEmpty)
            #expect(await tracker.isOptedOut)

            // When she opts in again
            try await tracker.setOptedOut(false)
            await tracker.track("app_foreground")
            await tracker.flush()
            #expect(
                try await AnalyticsService(storage: storage, clock: clock).report(days: 1).topEvents.map(\.name)
                    == ["app_foreground"])
        }
    }
}

/// The real network, keeping the analytics events each batch sent.
final class AnalyticsRecorder: HTTPTransport {
    private let base = URLSessionTransport()
    private let sent = NIOLockedValueBox<[AnalyticsEvent]>([])

    var events: [AnalyticsEvent] { sent.withLockedValue { $0 } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let response = try await base.send(request)
        if request.url.path == "/api/v1/analytics/events", response.status < 300, let body = request.body,
            let batch = try? WireJSON.decoder().decode(AnalyticsBatch.self, from: body)
        {
            sent.withLockedValue { $0 += batch.events }
        }
        return response
    }
}
