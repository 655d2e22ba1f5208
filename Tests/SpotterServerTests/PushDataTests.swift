import Foundation
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// What a push carries for the app beside its text (issue 40, item 2): the inbox row and the route's ids, the
/// category whose actions the app offers, and silent refreshes when the inbox changed elsewhere.
@Suite("Push data")
struct PushDataTests {
    static let phone = NotificationDeliveryTests.phone

    static func pushes(_ api: APIClient, _ transport: RecordingTransport) async throws -> [RecordingTransport.Sent] {
        api.clock.advance(by: 16 * 60)
        try await NotificationDeliveryTests.runner(api, transport).runDue()
        return transport.sent
    }

    @Test("a kudos push names its row, post and giver, in the activity category", arguments: StorageBackend.available)
    func kudos(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            // Given Ana with a phone and a workout, and Bea's kudos on it
            let (_, _, run) = try await NotificationDeliveryTests.ana(api)
            let bea = try await api.signup("bea")
            _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: bea.accessToken)
            // When the batch is pushed
            let push = try #require(try await Self.pushes(api, RecordingTransport()).first).message.push
            // Then it says which row and post it is about, and who gave it
            #expect(push.kind == .alert)
            #expect(push.type == .kudos)
            #expect(push.groupKey == "kudos-\(run.id)")
            #expect(push.postID == run.id)
            #expect(push.actorUsername == "bea" && push.actorID == bea.user.id)
            #expect(push.notificationID != nil)
            #expect(push.category == .activity)
            // And an app reads back what the server wrote
            #expect(NotificationPush(customData: push.customData) == push)
        }
    }

    @Test(
        "a follow request's push offers Approve and Deny and names who asks, even when its text may not",
        arguments: StorageBackend.available)
    func followRequest(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            // Given Ana, private, with a phone, and Bea asking to follow her
            let (ana, _, _) = try await NotificationDeliveryTests.ana(api)
            try await api.makePrivate(ana)
            let bea = try await api.signup("bea")
            _ = try await api.follow(bea.accessToken, "ana")
            // When it is pushed
            let sent = try #require(try await Self.pushes(api, RecordingTransport()).first)
            // Then the lock screen names nobody (Ana is private), but the app can answer the request
            #expect(!sent.message.body.contains("bea"))
            #expect(sent.message.push.category == .followRequest)
            #expect(sent.message.push.category?.actions == [.approve, .deny, .view])
            #expect(sent.message.push.actorUsername == "bea")
            #expect(sent.message.push.actorID == bea.user.id)
        }
    }

    @Test(
        "reading the inbox sends the person's phones one silent refresh, not their browsers, outside the hourly cap",
        arguments: StorageBackend.available)
    func silentRefresh(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.postRules.newAccountAge = 0 }) { api in
            // Given Ana with a phone and a browser, and a kudos pushed to both
            let (first, anaID, run) = try await NotificationDeliveryTests.ana(api)
            let browser = WebPushRegistration(
                endpoint: "https://push.example.net/send/abc",
                keys: .init(
                    p256dh: Data(repeating: 4, count: 65).base64URL, auth: Data(repeating: 1, count: 16).base64URL))
            _ = try await api.call(.post, "/api/v1/notifications/web-push", token: first, body: browser)
            _ = try await api.call(.post, "/api/v1/posts/\(run.id)/kudos", token: try await api.user("bea"))
            let transport = RecordingTransport()
            #expect(try await Self.pushes(api, transport).count == 2)
            let ana = try await api.signin("ana").decode(TokenResponse.self).accessToken  // a quarter of an hour on
            // When she reads one row on her laptop and then marks everything read
            let key = "kudos-\(run.id)"
            #expect(try await api.call(.post, "/api/v1/notifications/groups/\(key)/read", token: ana).status == .ok)
            #expect(try await api.call(.post, "/api/v1/notifications/read", token: ana, json: "{}").status == .ok)
            // Then one silent push waits, and reaches her phone alone, saying nothing is unread
            let waiting = try await api.storage.deliveries.pendingJobs(of: anaID)
            #expect(waiting.map(\.batchKey) == [DeliveryJob.refreshBatchKey])
            api.clock.advance(by: NotificationService.refreshDelay)
            try await NotificationDeliveryTests.runner(api, transport).runDue()
            let refresh = try #require(transport.sent.last)
            #expect(transport.sent.count == 3)
            #expect(refresh.target == .apns(token: Self.phone))
            #expect(refresh.message.push == NotificationPush(kind: .refresh, unread: 0))
            #expect(refresh.message.push.category == nil)
            // And the hourly cap still counts one push sent, not two
            let rules = try #require(
                try await api.storage.notifications.deliveryRules(
                    of: anaID, from: nil, pushesSince: api.clock.now.addingTimeInterval(-3600)))
            #expect(rules.pushesSent == 1)
        }
    }
}
