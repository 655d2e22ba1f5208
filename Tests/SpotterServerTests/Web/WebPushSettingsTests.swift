import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// Web Push from the web app (Settings → Notifications, "This browser"): the service worker at the root, the
/// control offered only with a VAPID key, and the session routes `web-push.js` registers and forgets a browser
/// through. Tests/Browser/test_web_push.py drives the same in Chromium.
@Suite("Web: Web Push from the browser")
struct WebPushSettingsTests {
    static let subscription = WebPushRegistration(
        endpoint: "https://push.example.net/send/browser",
        keys: .init(p256dh: Data(repeating: 4, count: 65).base64URL, auth: Data(repeating: 1, count: 16).base64URL))

    @Test("the service worker is served at the root, under the app's policy, and not from /assets/")
    func serviceWorker() async throws {
        try await TestApp.run(.sqlite) { api in
            var browser = WebBrowser(api)
            // The worker's scope may be the whole site only from the root
            let worker = try await browser.get("/sw.js")
            #expect(worker.status == .ok)
            #expect(worker.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(worker.headers[.cacheControl] == "no-cache")
            #expect(worker.headers[HTTPField.Name("Service-Worker-Allowed")!] == nil)
            #expect(
                worker.headers[HTTPField.Name("Content-Security-Policy")!] == WebSessionMiddleware.contentSecurityPolicy
            )
            #expect(worker.text.contains(#"addEventListener("notificationclick""#))
            #expect(try await browser.get("/assets/sw.js").status == .notFound)
            // And pages allow workers from this site only
            let page = try await browser.get("/signin")
            #expect(page.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("worker-src 'self';") == true)
        }
    }

    @Test("settings offer \"This browser\" with the server's VAPID key, and leave it out without one")
    func control() async throws {
        let keys = try VAPIDKeys.generate(subject: "mailto:ops@example.com")
        try await TestApp.run(.sqlite, configure: { $0.delivery.webPush = keys }) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let page = try await ana.get("/settings")
            #expect(page.text.contains(#"data-vapid-key="\#(keys.publicKeyBase64URL)" data-push-on="true" hidden"#))
            #expect(page.text.contains(#"id="web-push-status" role="status""#))
        }
        try await TestApp.run(.sqlite) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let page = try await ana.get("/settings")
            #expect(!page.text.contains(#"id="web-push""#))
            #expect(!page.text.contains("data-vapid-key"))
        }
    }

    @Test(
        "the page's script registers and forgets this browser's subscription with the session and the CSRF token",
        arguments: StorageBackend.available)
    func subscribe(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana on her settings page
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/settings")
            let token = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let me = try await api.call(.get, "/api/v1/me", token: token).decode(Account.self).id
            let json: HTTPFields = [.contentType: "application/json", .accept: "application/json"]
            var withToken = json
            withToken[HTTPField.Name("X-CSRF-Token")!] = ana.csrf
            let body = ByteBuffer(bytes: try JSONEncoder().encode(Self.subscription))

            // A post from another site (no CSRF token) is refused and stores nothing
            let forged = try await ana.send(.post, "/settings/web-push", body: body, headers: json)
            #expect(forged.status == .forbidden)
            #expect(try await api.storage.pushAddresses.webPushSubscriptions(of: me).isEmpty)

            // The page's own stores the subscription as the API would
            let stored = try await ana.send(.post, "/settings/web-push", body: body, headers: withToken)
            #expect(stored.status == .noContent, "\(stored.text)")
            #expect(try await api.storage.pushAddresses.webPushSubscriptions(of: me) == [Self.subscription])

            // A broken one is refused with the service's words, as problem+json the script can read
            let broken = ByteBuffer(string: #"{"endpoint":"ftp://nope","keys":{"p256dh":"short","auth":""}}"#)
            let refused = try await ana.send(.post, "/settings/web-push", body: broken, headers: withToken)
            #expect(try refused.problem().errors?.map(\.field) == ["endpoint", "keys.p256dh", "keys.auth"])

            // Unsubscribing forgets it; a second time there is nothing to forget
            let endpoint = ByteBuffer(string: #"{"endpoint":"\#(Self.subscription.endpoint)"}"#)
            let gone = try await ana.send(.post, "/settings/web-push/unsubscribe", body: endpoint, headers: withToken)
            #expect(gone.status == .noContent)
            #expect(try await api.storage.pushAddresses.webPushSubscriptions(of: me).isEmpty)
            let again = try await ana.send(.post, "/settings/web-push/unsubscribe", body: endpoint, headers: withToken)
            #expect(try again.problem().status == 404)

            // Signed out, the script is told so rather than sent a sign-in page
            var stranger = WebBrowser(api)
            try await stranger.get("/signin")
            var strangerHeaders = json
            strangerHeaders[HTTPField.Name("X-CSRF-Token")!] = stranger.csrf
            let anonymous = try await stranger.send(.post, "/settings/web-push", body: body, headers: strangerHeaders)
            #expect(try anonymous.problem().status == 401)
        }
    }
}
