import Foundation
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// No push while the person is in the app (issue 40, item 4; FameFit's "While user is active in app"): their
/// live socket shows the notification, the inbox keeps it, and the phone stays quiet until the app is closed.
@Suite("Pushes while in the app")
struct InAppPushTests {
    /// Waits until the node has written whether Ana is in the app (it writes a moment after the socket changes).
    static func until(_ inApp: Bool, _ api: APIClient, _ user: UserID) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await api.storage.pushAddresses.isInApp(user, at: api.clock.now) != inApp {
            try #require(ContinuousClock.now < deadline, "the node never wrote in_app = \(inApp)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test(
        "a comment while Ana's app has its socket open is not pushed but is in her inbox; after she leaves it is",
        arguments: StorageBackend.available)
    func skipsWhileInApp(backend: StorageBackend) async throws {
        try await TestApp.runLive(backend, configure: { $0.postRules.newAccountAge = 0 }) { api, port in
            // Given Ana with a phone and a workout, and her app open (a live socket)
            let (ana, anaID, run) = try await NotificationDeliveryTests.ana(api)
            let bea = try await api.user("bea")
            let socket = try await PhoenixTestClient.connect(port: port, token: ana)
            try await Self.until(true, api, anaID)

            // When Bea comments, and the delivery runner runs
            _ = try await api.call(
                .post, "/api/v1/posts/\(run.id)/comments", token: bea, body: CreateCommentRequest(text: "Strong!"))
            let transport = RecordingTransport()
            try await NotificationDeliveryTests.runner(api, transport).runDue()

            // Then nothing is pushed, and the comment waits in her inbox
            #expect(transport.sent.isEmpty)
            let inbox = try await api.call(.get, "/api/v1/notifications", token: ana).decode(
                Page<NotificationGroup>.self)
            #expect(inbox.items.map(\.type) == [.comment])

            // When she closes the app and Bea comments again
            await socket.close()
            try await Self.until(false, api, anaID)
            _ = try await api.call(
                .post, "/api/v1/posts/\(run.id)/comments", token: bea, body: CreateCommentRequest(text: "PR pace"))
            try await NotificationDeliveryTests.runner(api, transport).runDue()

            // Then her phone gets it
            #expect(transport.sent.map(\.target) == [.apns(token: NotificationDeliveryTests.phone)])
        }
    }
}
