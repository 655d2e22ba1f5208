import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's sessions")
struct WebSessionTests {
    @Test("a session that ended elsewhere is cleared from the browser, and pages treat it as signed out")
    func staleSession() async throws {
        try await TestApp.run(.sqlite) { api in
            var kim = WebBrowser(api)
            try await kim.signUp("kim")
            let cookie = try #require(kim.cookies["spotter_session"])
            // When the login is revoked (another tab signed out)
            var otherTab = kim
            try await otherTab.post("/signout")
            // Then this tab's next page is a signed-out one that drops the dead cookie
            let page = try await kim.get("/feed/global")
            #expect(page.status == .ok)
            #expect(page.text.contains("Join Spotter"))
            #expect(page.setCookie("spotter_session")?.contains("Max-Age=0") == true)
            #expect(kim.cookies["spotter_session"] == nil)
            #expect(try await api.storage.tokens.find(hash: OpaqueToken.hash(cookie))?.revokedAt != nil)
        }
    }

    @Test("the session cookie is not accepted as an API access token")
    func sessionIsNotAnAccessToken() async throws {
        try await TestApp.run(.sqlite) { api in
            var lou = WebBrowser(api)
            try await lou.signUp("lou")
            let cookie = try #require(lou.cookies["spotter_session"])
            // The cookie is a refresh token: not accepted as a bearer access token by the API
            #expect(try await api.call(.get, "/api/v1/me", token: cookie).status == .unauthorized)
        }
    }
}
