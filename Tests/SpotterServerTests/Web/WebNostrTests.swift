import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// The web app's Nostr routes as `nostr.js` calls them: `POST /signin/nostr` sets the session cookie like the
/// password form, only with the page's CSRF token, and a refusal says why; settings list and unlink keys.
@Suite("Web: Nostr keys and sign-in")
struct WebNostrTests {
    @Test("signing in with Nostr sets the session cookie; without the CSRF token or a good event it does not")
    func signIn() async throws {
        try await TestApp.run(.sqlite) { api in
            // Given Ana, who linked a key over the API
            let ana = try await api.signup("ana")
            let key = try await api.linkNewKey(ana.accessToken)
            var browser = WebBrowser(api)
            let page = try await browser.get("/signin")
            #expect(page.text.contains(#"data-url="http://127.0.0.1:8080/signin/nostr""#))
            let header = try api.authorization(key, url: "http://127.0.0.1:8080/signin/nostr")

            // A cross-site post (no CSRF token) is refused and signs nobody in
            let forged = try await browser.send(.post, "/signin/nostr", body: nil, headers: [.authorization: header])
            #expect(forged.status == .forbidden)
            #expect(forged.setCookie("spotter_session") == nil)

            // An event made for the API's sign-in URL is refused here, and the page's script is told why
            var headers: HTTPFields = [HTTPField.Name("X-CSRF-Token")!: browser.csrf]
            headers[.authorization] = try api.authorization(key)
            let wrong = try await browser.send(.post, "/signin/nostr", body: nil, headers: headers)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("u tag"))

            // The page's own: signed in, sent on to the page that asked
            headers[.authorization] = header
            let response = try await browser.send(
                .post, "/signin/nostr?return_to=%2Fsettings", body: nil, headers: headers)
            #expect(response.status == .ok, "\(response.text)")
            #expect(try response.decode([String: String].self) == ["location": "/settings"])
            #expect(response.setCookie("spotter_session")?.contains("HttpOnly") == true)
            let settings = try await browser.get("/settings")
            #expect(settings.status == .ok)
            // The settings page, signed in by the cookie, lists her key
            let keys = try await api.call(.get, "/api/v1/nostr/keys", token: ana.accessToken).decode([NostrKey].self)
            #expect(settings.text.contains(try #require(keys.first?.npub)))
        }
    }

    @Test("settings unlink a key with a plain form")
    func unlink() async throws {
        try await TestApp.run(.sqlite) { api in
            var browser = WebBrowser(api)
            try await browser.signUp("ana")
            // Ana links a key through the settings routes, as the script does
            try await browser.get("/settings")
            var headers: HTTPFields = [HTTPField.Name("X-CSRF-Token")!: browser.csrf]
            let challenge = try JSONDecoder().decode(
                [String: String].self,
                from: Data(
                    buffer: try await browser.send(.post, "/settings/nostr/challenge", body: nil, headers: headers).body
                ))
            let key = try NostrSecretKey.generate()
            let event = try NostrEvent.sign(
                kind: .clientAuthentication,
                tags: [
                    ["relay", try #require(challenge["relay_url"])],
                    ["challenge", try #require(challenge["challenge"])],
                ],
                content: "", createdAt: Int64(api.clock.now.timeIntervalSince1970), with: key)
            headers[.contentType] = "application/json"
            let linked = try await browser.send(
                .post, "/settings/nostr/keys", body: ByteBuffer(string: #"{"event":\#(event.json)}"#), headers: headers)
            #expect(linked.status == .created, "\(linked.text)")
            let page = try await browser.get("/settings")
            #expect(page.text.contains(#"name="pubkey" value="\#(key.publicKey.rawValue)""#))
            // When she unlinks it with the form
            let unlinked = try await browser.post("/settings/nostr/unlink", [("pubkey", key.publicKey.rawValue)])
            // Then the page says so, and lists no key
            #expect(unlinked.headers[.location] == "/settings?saved=nostr-unlinked#nostr-title")
            let after = try await browser.get("/settings?saved=nostr-unlinked")
            #expect(after.text.contains("no-nostr-keys"))
            #expect(!after.text.contains(key.publicKey.rawValue))
        }
    }
}
