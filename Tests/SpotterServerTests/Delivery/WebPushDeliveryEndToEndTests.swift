import AsyncHTTPClient
import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// The whole path with no stand-in on Spotter's side: a browser registers over HTTP, a follow happens, the
/// queue runs, and the local push service decrypts what the browser would show.
@Suite("Web Push end to end")
struct WebPushDeliveryEndToEndTests {
    @Test("a follow reaches a registered browser, encrypted for it, through the delivery queue")
    func followToBrowser() async throws {
        let keys = try VAPIDKeys.generate(subject: "mailto:ops@spotter.test")
        let service = LocalPushService(applicationServerKey: keys.publicKeyBase64URL)
        try await service.run { baseURL in
            try await TestApp.run(.sqlite, configure: { $0.delivery.webPush = keys }) { api in
                let ana = try await api.signup("ana")
                let key = try await api.call(.get, "/api/v1/notifications/web-push/key", token: ana.accessToken)
                #expect(try key.decode(WebPushKey.self).publicKey == keys.publicKeyBase64URL)
                let browser = service.browser.subscription(endpoint: "\(baseURL)/push/ana")
                let registration = WebPushRegistration(
                    endpoint: browser.endpoint.absoluteString, keys: .init(p256dh: browser.p256dh, auth: browser.auth))
                let registered = try await api.call(
                    .post, "/api/v1/notifications/web-push", token: ana.accessToken, body: registration)
                #expect(registered.status == .noContent)

                try await api.follow(try await api.user("bea"), "ana")
                var settings = DeliveryConfiguration()
                settings.webPush = keys
                let transport = ChannelTransport(channels: try settings.channels())
                let runner = DeliveryRunner(
                    storage: api.storage, clock: api.clock, transport: transport, logger: StorageBackend.logger)
                #expect(try await runner.runDue() == 1)

                let pushes = await service.inbox.messages
                #expect(pushes.count == 1)
                let shown = try JSONDecoder().decode([String: String].self, from: try #require(pushes.first).plaintext)
                #expect(shown["body"] == "bea started following you")
                #expect(shown["badge"] == "1")
                // A click opens the row's page, which reads it and goes where the web inbox goes.
                #expect(shown["url"] == "/notifications/groups/\(try #require(shown["tag"]))")
            }
        }
    }
}
