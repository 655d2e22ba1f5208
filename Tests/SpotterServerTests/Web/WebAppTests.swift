import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app over HTTP")
struct WebAppTests {
    @Test("a visitor gets the landing feed, the sign-in forms and the assets", arguments: StorageBackend.available)
    func signedOut(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var browser = WebBrowser(api)
            // Given nobody signed in
            // When they open the home page
            let home = try await browser.get("/")
            // Then they see the public feed and a way in, with a CSRF cookie for the sign-in forms
            #expect(home.status == .ok)
            #expect(home.headers[.contentType] == "text/html; charset=utf-8")
            #expect(home.text.contains("Join Spotter"))
            #expect(home.text.contains(#"href="/feed/global""#))
            let csrfCookie = try #require(home.setCookie("spotter_csrf"))
            #expect(csrfCookie.contains("HttpOnly"))
            #expect(csrfCookie.contains("SameSite=Lax"))
            #expect(try await browser.get("/signin").status == .ok)
            #expect(browser.lastPage.contains(#"name="_csrf""#))
            #expect(try await browser.get("/signup").status == .ok)
            #expect(try await browser.get("/feed/featured").status == .ok)
            // And pages that need an account send them to sign in, and back afterwards
            let compose = try await browser.get("/compose")
            #expect(compose.status == .seeOther)
            #expect(compose.headers[.location] == "/signin?return_to=/compose")
            #expect(try await browser.get("/feed/following").headers[.location] == "/signin?return_to=/feed/following")
            // And the static files are served with their types
            let script = try await browser.get("/assets/app.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await browser.get("/assets/app.css").headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await browser.get("/assets/nope.js").status == .notFound)
            #expect(try await browser.get("/posts/not-an-id").status == .notFound)
        }
    }

    @Test("every page carries a Content-Security-Policy that allows no inline script")
    func contentSecurityPolicy() async throws {
        try await TestApp.run(.sqlite) { api in
            var browser = WebBrowser(api)
            for path in ["/", "/signin", "/signup", "/feed/global", "/u/nobody"] {
                let response = try await browser.get(path)
                let policy = try #require(response.headers[HTTPField.Name("Content-Security-Policy")!], "\(path)")
                #expect(policy.contains("script-src 'self';"))
                #expect(!policy.contains("unsafe-inline"))
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            }
            // And no page has an inline script for the policy to block
            #expect(!browser.lastPage.contains("<script>"))
        }
    }

    @Test(
        "signing up sets an HttpOnly, SameSite=Lax session cookie, hashed on the server",
        arguments: StorageBackend.available)
    func sessionCookie(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var browser = WebBrowser(api)
            // Given the sign-up form
            try await browser.get("/signup")
            // When a newcomer fills it in
            let response = try await browser.post(
                "/signup", [("username", "nina"), ("email", "nina@example.com"), ("password", "correct horse battery")])
            // Then they land on the first-run page with a session cookie that script cannot read
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/welcome")
            let cookie = try #require(response.setCookie("spotter_session"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(cookie.contains("Path=/"))
            #expect(!cookie.contains("Secure"))  // plain HTTP on localhost unless configured
            // And the database knows the session only by its hash
            let session = try #require(browser.cookies["spotter_session"])
            #expect(try await api.storage.tokens.find(hash: session) == nil)
            #expect(try await api.storage.tokens.find(hash: OpaqueToken.hash(session))?.kind == .refresh)
            let home = try await browser.get("/")
            #expect(home.text.contains("@nina") || home.text.contains("/u/nina"))
            #expect(home.text.contains("data-socket-token=\"spa_"))
            // And the page's socket token is a working access token of the same login
            let token = try #require(
                home.text.components(separatedBy: "data-socket-token=\"").last?.prefix { $0 != "\"" })
            #expect(try await api.call(.get, "/api/v1/me", token: String(token)).status == .ok)

            // When they sign out
            try await browser.post("/signout")
            // Then the session is revoked and the cookie cleared
            #expect(browser.cookies["spotter_session"] == nil)
            #expect(try await api.storage.tokens.find(hash: OpaqueToken.hash(session))?.revokedAt != nil)
            #expect(try await api.call(.get, "/api/v1/me", token: String(token)).status == .unauthorized)
        }
    }

    @Test("with secure cookies configured, the session cookie is Secure")
    func secureCookie() async throws {
        try await TestApp.run(.sqlite, configure: { $0.secureCookies = true }) { api in
            var browser = WebBrowser(api)
            try await browser.get("/signup")
            let response = try await browser.post(
                "/signup", [("username", "sam"), ("email", "sam@example.com"), ("password", "correct horse battery")])
            #expect(try #require(response.setCookie("spotter_session")).contains("Secure"))
        }
    }

    @Test("a wrong password re-shows the form with a message, not a problem document")
    func wrongPassword() async throws {
        try await TestApp.run(.sqlite) { api in
            _ = try await api.signup("omar")
            var browser = WebBrowser(api)
            try await browser.get("/signin")
            let response = try await browser.post("/signin", [("login", "omar"), ("password", "wrong password!")])
            #expect(response.status == .unauthorized)
            #expect(response.text.contains("Wrong login or password."))
            #expect(response.text.contains(#"value="omar""#))
            #expect(browser.cookies["spotter_session"] == nil)
        }
    }

    @Test(
        "a form posted without its CSRF token is refused with 403 and changes nothing",
        arguments: StorageBackend.available)
    func csrf(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var browser = WebBrowser(api)
            try await browser.signUp("ivy")
            // When a note is posted without the token, or with another one
            let missing = try await browser.post("/posts", [("kind", "note"), ("text", "forged")], csrf: false)
            let wrong = try await browser.post(
                "/posts", [("_csrf", "0123456789abcdef0123456789abcdef"), ("kind", "note"), ("text", "forged")],
                csrf: false)
            // Then both are refused, and nothing was posted
            #expect(missing.status == .forbidden)
            #expect(wrong.status == .forbidden)
            #expect(missing.text.contains("This form has expired"))
            // And the sign-in form is protected too, before anyone is signed in
            var stranger = WebBrowser(api)
            #expect(
                try await stranger.post("/signin", [("login", "ivy"), ("password", "x")], csrf: false).status
                    == .forbidden)
            // And with the page's token the same note goes through
            try await browser.get("/compose")
            #expect(try await browser.post("/posts", [("kind", "note"), ("text", "real #gym")]).status == .seeOther)
            let feed = try await api.call(.get, "/api/v1/feeds/global").decode(Page<Post>.self)
            #expect(feed.items.map(\.text) == ["real #gym"])
        }
    }

    @Test(
        "a workout from the builder shows in Following; kudos answer JSON to fetch", arguments: StorageBackend.available
    )
    func workoutBuilderAndKudos(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/compose")
            // When Ana logs two exercises with their sets
            let posted = try await ana.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Heavy Monday"), ("type", "strength"), ("duration_min", "55"),
                    ("exercise_name", "Back Squat"), ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "5"),
                    ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "5"),
                    ("set_exercise", "0"), ("set_weight", "105"), ("set_reps", "3"),
                    ("exercise_name", "Bench Press"), ("set_exercise", "1"), ("set_weight", "70,5"), ("set_reps", "8"),
                    ("text", "Felt strong"), ("visibility", "public"),
                ])
            #expect(posted.status == .seeOther)
            #expect(posted.headers[.location] == "/feed/following")
            // Then her Following feed shows it, sets and all
            let following = try await ana.get("/feed/following")
            #expect(following.text.contains("Heavy Monday"))
            // Repeated sets read as lifters write them.
            #expect(following.text.contains("2 sets of 5 × 100 kg, 3 × 105 kg"))
            #expect(following.text.contains("8 × 70.5 kg"))
            let postID = try #require(Self.firstPostID(in: following.text))

            // When Bo gives kudos from the page's script
            var bo = WebBrowser(api)
            try await bo.signUp("bob")
            var headers = HTTPFields()
            headers[.accept] = "application/json"
            headers[HTTPField.Name("X-CSRF-Token")!] = bo.csrf
            let kudos = try await bo.post("/posts/\(postID)/kudos", [("on", "true")], csrf: false, headers: headers)
            // Then the answer is the new state, as JSON
            #expect(kudos.status == .ok)
            let state = try kudos.decode(KudosState.self)
            #expect(state.kudosCount == 1)
            #expect(state.kudosedByMe)
            // And without the header the same request is refused
            var bare = HTTPFields()
            bare[.accept] = "application/json"
            #expect(
                try await bo.post("/posts/\(postID)/kudos", [("on", "false")], csrf: false, headers: bare).status
                    == .forbidden)
            // And Ana's badge counts the kudos
            let page = try await ana.get("/feed/following")
            #expect(page.text.contains(#"id="unread-badge" aria-label="new notifications">1<"#))
        }
    }

    @Test("what people write is shown as text, never as markup", arguments: StorageBackend.available)
    func escaping(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var eve = WebBrowser(api)
            try await eve.signUp("eve")
            try await eve.get("/compose")
            try await eve.post("/posts", [("kind", "note"), ("text", #"<script>alert("note")</script> & "quotes""#)])
            let feed = try await eve.get("/feed/following")
            let postID = try #require(Self.firstPostID(in: feed.text))
            try await eve.get("/posts/\(postID)")
            try await eve.post("/posts/\(postID)/comments", [("text", "<script>alert('comment')</script><b>hi</b>")])
            let detail = try await eve.get("/posts/\(postID)")
            #expect(detail.status == .ok)
            #expect(!detail.text.contains("<script>alert"))
            #expect(!detail.text.contains("<b>hi</b>"))
            #expect(
                detail.text.contains("&lt;script&gt;alert(&quot;note&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;"))
            #expect(detail.text.contains("&lt;script&gt;alert(&#39;comment&#39;)&lt;/script&gt;&lt;b&gt;hi&lt;/b&gt;"))
        }
    }

    @Test("a profile shows the weekly chart, and follow / unfollow work from it", arguments: StorageBackend.available)
    func profileAndFollow(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var cal = WebBrowser(api)
            try await cal.signUp("cal")
            try await cal.get("/compose")
            try await cal.post(
                "/posts",
                [
                    ("kind", "workout"), ("title", "Pull day"), ("type", "strength"), ("exercise_name", "Deadlift"),
                    ("set_exercise", "0"), ("set_weight", "140"), ("set_reps", "5"),
                ])
            var dee = WebBrowser(api)
            try await dee.signUp("dee")
            let profile = try await dee.get("/u/cal")
            #expect(profile.status == .ok)
            #expect(profile.text.contains("<svg"))
            #expect(profile.text.contains("Workouts per week"))
            #expect(profile.text.contains("Pull day"))
            #expect(profile.text.contains(#"action="/u/cal/follow""#))
            // When Dee follows Cal, Cal's posts reach Dee's Following feed
            #expect(try await dee.post("/u/cal/follow").headers[.location] == "/u/cal")
            #expect(try await dee.get("/u/cal").text.contains(#"action="/u/cal/unfollow""#))
            #expect(try await dee.get("/feed/following").text.contains("Pull day"))
            try await dee.get("/u/cal")
            try await dee.post("/u/cal/unfollow")
            #expect(!(try await dee.get("/feed/following").text.contains("Pull day")))
            #expect(try await dee.get("/u/nobody").status == .notFound)
            #expect(try await dee.get("/notifications").status == .ok)
        }
    }

    static func firstPostID(in html: String) -> String? {
        guard let range = html.range(of: #"data-post-id=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}

@Suite("The web app's feeds")
struct WebFeedTests {
    @Test("load more pages through a feed, as a link and as a fragment for script", arguments: StorageBackend.available)
    func loadMore(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given 25 posts in the Global feed, from an account old enough to post freely
            _ = try await api.user("ivo")
            api.clock.advance(by: 2 * 86_400)
            let ivo = try await api.signin("ivo").decode(TokenResponse.self).accessToken
            for number in 1...25 { try await api.post(ivo, "Session \(number) #gym") }
            var visitor = WebBrowser(api)
            // When a visitor opens the feed, they get the newest 20 and a link to more
            let first = try await visitor.get("/feed/global")
            #expect(first.text.components(separatedBy: "data-post-id=").count - 1 == 20)
            #expect(first.text.contains(#"Session 25 <a href="/tags/gym">#gym</a>"#))
            let more = try #require(
                first.text.components(separatedBy: #"class="button load-more" href=""#).last?.prefix { $0 != "\"" })
            // And the next page, asked for as a fragment, is just the remaining items
            let fragment = try await visitor.get(
                String(more).replacingOccurrences(of: "&amp;", with: "&") + "&fragment=1")
            #expect(fragment.status == .ok)
            #expect(!fragment.text.contains("<html"))
            #expect(fragment.text.components(separatedBy: "data-post-id=").count - 1 == 5)
            #expect(fragment.text.contains(#"Session 1 <a href="/tags/gym">#gym</a>"#))
            #expect(!fragment.text.contains("load-more"))
        }
    }

    @Test("an unknown address gives a browser a page, and the API its problem document")
    func notFound() async throws {
        try await TestApp.run(.sqlite) { api in
            var browser = WebBrowser(api)
            let page = try await browser.get("/no/such/page", headers: [.accept: "text/html,application/xhtml+xml"])
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("There is nothing at this address."))
            let problem = try await api.call(.get, "/api/v1/no-such-route", headers: [.accept: "text/html"])
            #expect(problem.status == .notFound)
            #expect(problem.headers[.contentType] == "application/problem+json")
        }
    }
}
