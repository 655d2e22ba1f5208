import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's people: follow requests, lists, blocks, mutes and the first-run page")
struct WebPeopleTests {
    @Test(
        "a follow request is approved from the inbox, and no one else can answer it",
        arguments: StorageBackend.available)
    func approveFromInbox(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Bo, private, and Ana and Cai
            var bo = WebBrowser(api)
            try await bo.signUp("bob")
            try await bo.get("/settings")
            try await bo.post("/settings/profile", [("display_name", "Bob"), ("privacy", "private")])
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            var cai = WebBrowser(api)
            try await cai.signUp("cai")
            // When Ana asks to follow Bo
            let profile = try await ana.get("/u/bob")
            #expect(profile.text.contains("Request to follow"))
            try await ana.post("/u/bob/follow")
            // Then Bo's profile tells her it is requested, with a way to cancel
            let requested = try await ana.get("/u/bob")
            #expect(requested.text.contains(#"id="cancel-request""#))
            #expect(!requested.text.contains(#"href="/u/bob/followers""#))
            // And Bo's inbox carries Approve and Deny, and the requests page lists Ana
            let inbox = try await bo.get("/notifications")
            #expect(inbox.text.contains("ana asked to follow you"))
            #expect(inbox.text.contains(#"action="/follow-requests/ana/approve""#))
            #expect(inbox.text.contains(#"href="/follow-requests""#))
            #expect(try await bo.get("/follow-requests").text.contains(#"href="/u/ana""#))
            // And Cai cannot answer a request made to Bo
            try await cai.get("/")
            let forged = try await cai.post("/follow-requests/ana/approve", [("back", "/notifications")])
            #expect(forged.status == .notFound)
            // When Bo approves from the inbox
            try await bo.get("/notifications")
            let approved = try await bo.post("/follow-requests/ana/approve", [("back", "/notifications")])
            #expect(approved.status == .seeOther)
            #expect(approved.headers[.location] == "/notifications")
            // Then Ana follows Bo, sees Bo's followers, and the request's notice is gone from Bo's inbox
            let following = try await ana.get("/u/bob")
            #expect(following.text.contains("Following ✓"))
            let followers = try await ana.get("/u/bob/followers")
            #expect(followers.status == .ok)
            #expect(followers.text.contains(#"href="/u/ana""#))
            #expect(!(try await bo.get("/notifications")).text.contains("asked to follow you"))
            #expect(try await bo.get("/follow-requests").text.contains("No one is waiting"))
            // And a back address off this site is not followed
            try await ana.get("/u/cai")
            let offsite = try await ana.post("/u/cai/follow", [("back", "//evil.example/")])
            #expect(offsite.headers[.location] == "/u/cai")
        }
    }

    @Test(
        "a cancelled request leaves no request and no notice; a private account's lists stay hidden",
        arguments: StorageBackend.available)
    func cancelRequest(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Bo, private, and Dee who asked to follow her
            var bo = WebBrowser(api)
            try await bo.signUp("bob")
            try await bo.get("/settings")
            try await bo.post("/settings/profile", [("display_name", "Bob"), ("privacy", "private")])
            var dee = WebBrowser(api)
            try await dee.signUp("dee")
            try await dee.get("/u/bob")
            try await dee.post("/u/bob/follow")
            // When Dee cancels
            try await dee.get("/u/bob")
            let cancelled = try await dee.post("/u/bob/unfollow")
            #expect(cancelled.headers[.location] == "/u/bob")
            // Then Bo has no request and no notice
            #expect(try await bo.get("/follow-requests").text.contains("No one is waiting"))
            #expect(!(try await bo.get("/notifications")).text.contains("asked to follow you"))
            #expect(try await dee.get("/u/bob").text.contains("Request to follow"))
            // And Bo's lists are hers and her followers' only
            #expect(try await dee.get("/u/bob/followers").status == .forbidden)
            var visitor = WebBrowser(api)
            #expect(try await visitor.get("/u/bob/following").status == .forbidden)
            #expect(try await bo.get("/u/bob/followers").status == .ok)
            // While a public account's lists are anyone's, linked from the profile
            #expect(try await bo.get("/u/dee").text.contains(#"href="/u/dee/followers""#))
            #expect(try await visitor.get("/u/dee/following").status == .ok)
        }
    }

    @Test(
        "notifications link to what they are about, opening the inbox clears the badge, opening one reads it",
        arguments: StorageBackend.available)
    func notificationLinks(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, whom Eve follows
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            var eve = WebBrowser(api)
            try await eve.signUp("eve")
            try await eve.get("/u/ana")
            try await eve.post("/u/ana/follow")
            // Then Ana's badge shows one new notification
            let home = try await ana.get("/")
            #expect(home.text.contains(#"id="unread-badge" aria-label="new notifications">1</span>"#))
            // When she opens the inbox, the badge clears but the notification stays unread
            let inbox = try await ana.get("/notifications")
            #expect(inbox.text.contains(#"aria-label="new notifications" hidden>"#))
            #expect(inbox.text.contains("inbox-item unread"))
            // And opening it goes to Eve's profile and marks it read
            let href = try #require(Self.firstOpenHref(in: inbox.text))
            let opened = try await ana.get(href)
            #expect(opened.status == .seeOther)
            #expect(opened.headers[.location] == "/u/eve")
            #expect(!(try await ana.get("/notifications")).text.contains("inbox-item unread"))
            // And a new sign-in's alert names the device and leads to the security page
            var phone = HTTPFields()
            phone[.userAgent] =
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
            #expect(try await api.signin("ana", headers: phone).status == .ok)
            let alerts = try await ana.get("/notifications")
            #expect(alerts.text.contains("New sign-in to your account: Safari on iPhone"))
            let alert = try #require(Self.firstOpenHref(in: alerts.text))
            #expect(try await ana.get(alert).headers[.location] == "/settings/security")
            let security = try await ana.get("/settings/security")
            #expect(security.status == .ok)
            #expect(security.text.contains("Sign out everywhere else"))
            // And someone else's group is nobody's business: it just goes back to the inbox
            #expect(try await eve.get(alert).headers[.location] == "/notifications")
            // And a comment leads to the post, at the comment
            let anaToken = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let eveToken = try await api.signin("eve").decode(TokenResponse.self).accessToken
            let post = try await api.post(anaToken, "Rest day walk")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: eveToken, body: CreateCommentRequest(text: "Nice")
            ).decode(SpotterModels.Comment.self)
            let withComment = try await ana.get("/notifications")
            let commentHref = try #require(Self.firstOpenHref(in: withComment.text))
            #expect(try await ana.get(commentHref).headers[.location] == "/posts/\(post.id)#comment-\(comment.id)")
        }
    }

    @Test(
        "the security page lists the logins; one or all others are signed out, never someone else's",
        arguments: StorageBackend.available)
    func logins(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana signed in on the web and twice through the API
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let phone = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let laptop = try await api.signin("ana").decode(TokenResponse.self).accessToken
            // Then her security page lists three logins, this one marked
            let page = try await ana.get("/settings/security")
            #expect(page.text.components(separatedBy: #"<li class="person-row">"#).count - 1 == 3)
            #expect(page.text.contains("This device"))
            let signOuts = page.text.components(separatedBy: #"action="/settings/security/logins/"#).dropFirst()
            #expect(signOuts.count == 2)
            let first = try #require(signOuts.first.map { String($0.prefix { $0 != "/" }) })
            // And Bea can't sign out Ana's login
            var bea = WebBrowser(api)
            try await bea.signUp("bea")
            let forged = try await bea.post("/settings/security/logins/\(first)/sign-out")
            #expect(forged.status == .notFound)
            #expect(try await bea.post("/settings/security/logins/not-a-login/sign-out").status == .notFound)
            #expect(try await api.call(.get, "/api/v1/me", token: phone).status == .ok)
            #expect(try await api.call(.get, "/api/v1/me", token: laptop).status == .ok)
            // When Ana signs out one of them, that one ends and the other stays
            try await ana.get("/settings/security")
            let ended = try await ana.post("/settings/security/logins/\(first)/sign-out")
            #expect(ended.headers[.location] == "/settings/security?ended=1")
            let statuses = [
                try await api.call(.get, "/api/v1/me", token: laptop).status,
                try await api.call(.get, "/api/v1/me", token: phone).status,
            ]
            #expect(statuses.sorted { $0.code < $1.code } == [.ok, .unauthorized])
            #expect(try await ana.get("/settings/security?ended=1").text.contains("Signed out of 1 other login."))
            // And then everywhere else: the phone ends too, her own page stays
            try await ana.get("/settings/security")
            let all = try await ana.post("/settings/security/sign-out-others")
            #expect(all.headers[.location] == "/settings/security?ended=1")
            #expect(try await api.call(.get, "/api/v1/me", token: phone).status == .unauthorized)
            #expect(try await api.call(.get, "/api/v1/me", token: laptop).status == .unauthorized)
            let after = try await ana.get("/settings/security")
            #expect(after.status == .ok)
            #expect(!after.text.contains("Sign out everywhere else"))
        }
    }

    @Test(
        "every login on the security page names its device and place, an older one reads as earlier, only to its owner",
        arguments: StorageBackend.available)
    func loginsNamed(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: { $0.trustForwardedFor = true }) { api in
            // Given Ana joined on the web from Firefox on this computer
            var ana = WebBrowser(api)
            var firefox = HTTPFields()
            firefox[.userAgent] = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0"
            firefox[HTTPField.Name("X-Forwarded-For")!] = "127.0.0.1"
            try await ana.get("/signup", headers: firefox)
            let joined = try await ana.post(
                "/signup", [("username", "ana"), ("email", "ana@example.com"), ("password", "correct horse battery")],
                headers: firefox)
            #expect(joined.status == .seeOther)
            // And signed in from Chrome elsewhere and from the spotter CLI on her network
            var chrome = HTTPFields()
            chrome[.userAgent] =
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
            chrome[HTTPField.Name("X-Forwarded-For")!] = "203.0.113.7"
            #expect(try await api.signin("ana", headers: chrome).status == .ok)
            var cli = HTTPFields()
            cli[.userAgent] = "spotter (unknown version) curl/8.5.0"
            cli[HTTPField.Name("X-Forwarded-For")!] = "192.168.1.20"
            #expect(try await api.signin("ana", headers: cli).status == .ok)
            // And a login from before devices were kept (tokens with no record of where they came from)
            let account = try #require(try await api.storage.accounts.find(username: "ana"))
            let now = api.clock.now
            try await api.storage.tokens.insert(
                TokenRecord(
                    hash: OpaqueToken.hash(OpaqueToken.generate(.refresh)), userID: account.id, family: UUID(),
                    kind: .refresh, createdAt: now - 3600, expiresAt: now + 86_400))
            // When she opens her security page (this request without a User-Agent)
            let page = try await ana.get("/settings/security")
            // Then each login names its device and place as the sign-in alert does, this one marked
            #expect(page.text.components(separatedBy: #"<li class="person-row">"#).count - 1 == 4)
            #expect(page.text.contains("Chrome on Linux from 203.0.113.7"))
            #expect(page.text.contains("the spotter command-line tool on your local network (192.168.1.20)"))
            #expect(page.text.contains("Firefox on Windows on this computer (127.0.0.1)</span> <strong>(this device)"))
            #expect(page.text.contains("An earlier sign-in (device not recorded)"))
            #expect(page.text.contains(#"aria-label="Sign out Chrome on Linux from 203.0.113.7, signed in"#))
            // And Bea, another person, sees only her own login: none of Ana's devices or addresses
            var bea = WebBrowser(api)
            try await bea.signUp("bea")
            let theirs = try await bea.get("/settings/security")
            #expect(theirs.text.components(separatedBy: #"<li class="person-row">"#).count - 1 == 1)
            for detail in ["203.0.113.7", "192.168.1.20", "Chrome on Linux", "command-line tool", "127.0.0.1"] {
                #expect(!theirs.text.contains(detail))
            }
            // And signed out, nobody sees the page at all
            var stranger = WebBrowser(api)
            #expect(try await stranger.get("/settings/security").status != .ok)
        }
    }

    @Test(
        "block and mute from a profile, undone from the people settings; a blocked person can't see or follow",
        arguments: StorageBackend.available)
    func blockAndMute(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            var cai = WebBrowser(api)
            try await cai.signUp("cai")
            var dee = WebBrowser(api)
            try await dee.signUp("dee")
            // When Ana blocks Cai and mutes Dee from their profiles
            let profile = try await ana.get("/u/cai")
            #expect(profile.text.contains(#"action="/u/cai/block""#))
            #expect(profile.text.contains("data-confirm="))
            let blocked = try await ana.post("/u/cai/block")
            #expect(blocked.headers[.location] == "/settings/people?blocked=cai")
            try await ana.get("/u/dee")
            #expect(try await ana.post("/u/dee/mute").headers[.location] == "/u/dee")
            #expect(try await ana.get("/u/dee").text.contains("Unmute"))
            // Then the people settings list both, each with its undo
            let people = try await ana.get("/settings/people?blocked=cai")
            #expect(people.text.contains("You blocked @cai"))
            #expect(people.text.contains(#"action="/u/cai/unblock""#))
            #expect(people.text.contains(#"action="/u/dee/unmute""#))
            #expect(try await ana.get("/settings").text.contains(#"href="/settings/people""#))
            // And Cai can neither see Ana nor follow her
            #expect(try await cai.get("/u/ana").status == .notFound)
            try await cai.get("/")
            #expect(try await cai.post("/u/ana/follow").status == .notFound)
            // When Ana unblocks and unmutes from the list
            try await ana.get("/settings/people")
            let unblocked = try await ana.post("/u/cai/unblock", [("back", "/settings/people?unblocked=cai")])
            #expect(unblocked.headers[.location] == "/settings/people?unblocked=cai")
            try await ana.post("/u/dee/unmute", [("back", "/settings/people")])
            // Then the lists are empty and Cai sees Ana again
            let after = try await ana.get("/settings/people")
            #expect(after.text.contains("You haven't blocked anyone."))
            #expect(after.text.contains("You haven't muted anyone."))
            #expect(try await cai.get("/u/ana").status == .ok)
        }
    }

    @Test("the API lists whom I block and mute, to me only", arguments: StorageBackend.available)
    func blockListsAPI(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            _ = try await api.user("bea")
            _ = try await api.user("cai")
            let dee = try await api.user("dee")
            #expect(try await api.call(.post, "/api/v1/users/bea/block", token: ana).status == .ok)
            #expect(try await api.call(.post, "/api/v1/users/cai/block", token: ana).status == .ok)
            #expect(try await api.call(.post, "/api/v1/users/dee/mute", token: ana).status == .ok)
            // Paginated, most recent first
            let first = try await api.call(.get, "/api/v1/me/blocks?limit=1", token: ana).decode(
                Page<AuthorSummary>.self)
            #expect(first.items.map(\.username) == ["cai"])
            let cursor = try #require(first.nextCursor)
            let second = try await api.call(.get, "/api/v1/me/blocks?limit=1&cursor=\(cursor)", token: ana)
                .decode(Page<AuthorSummary>.self)
            #expect(second.items.map(\.username) == ["bea"])
            #expect(second.nextCursor == nil)
            let mutes = try await api.call(.get, "/api/v1/me/mutes", token: ana).decode(Page<AuthorSummary>.self)
            #expect(mutes.items.map(\.username) == ["dee"])
            // Everyone sees only their own lists
            #expect(
                try await api.call(.get, "/api/v1/me/blocks", token: dee).decode(Page<AuthorSummary>.self).items == [])
            #expect(try await api.call(.get, "/api/v1/me/mutes", token: nil).status == .unauthorized)
            #expect(try await api.call(.get, "/api/v1/me/blocks?cursor=nope", token: ana).status == .badRequest)
        }
    }

    @Test(
        "joining lands on a welcome page suggesting people, never oneself nor the blocked nor the followed",
        arguments: StorageBackend.available)
    func welcome(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, Bea and Cai already here
            let anaToken = try await api.user("ana")
            _ = try await api.user("bea")
            _ = try await api.user("cai")
            // When Zed joins on the web
            var zed = WebBrowser(api)
            try await zed.get("/signup")
            let joined = try await zed.post(
                "/signup", [("username", "zed"), ("email", "zed@example.com"), ("password", "correct horse battery")])
            // Then he lands on the welcome page, with people to follow and the way to his feed
            #expect(joined.headers[.location] == "/welcome")
            let welcome = try await zed.get("/welcome")
            #expect(welcome.text.contains(#"action="/u/ana/follow""#))
            #expect(welcome.text.contains(#"action="/u/bea/follow""#))
            #expect(!welcome.text.contains(#"action="/u/zed/follow""#))
            #expect(welcome.text.contains(#"href="/" id="go-to-feed""#))
            // When he follows Ana from it, he comes back and Ana is no longer suggested
            let followed = try await zed.post("/u/ana/follow", [("back", "/welcome")])
            #expect(followed.headers[.location] == "/welcome")
            #expect(!(try await zed.get("/welcome")).text.contains(#"action="/u/ana/follow""#))
            // And someone he blocks, or who blocks him, is never offered
            #expect(welcome.text.contains(#"action="/u/cai/follow""#))
            try await zed.post("/u/cai/block")
            #expect(try await api.call(.post, "/api/v1/users/zed/block", token: anaToken).status == .ok)
            let after = try await zed.get("/welcome")
            #expect(!after.text.contains(#"action="/u/cai/follow""#))
            #expect(after.text.contains(#"action="/u/bea/follow""#))
            var visitor = WebBrowser(api)
            #expect(try await visitor.get("/welcome").headers[.location] == "/signin?return_to=/welcome")
        }
    }

    static func firstOpenHref(in page: String) -> String? {
        guard let range = page.range(of: #"href="/notifications/groups/"#) else { return nil }
        let rest = page[range.lowerBound...].dropFirst(#"href=""#.count)
        return String(rest.prefix { $0 != "\"" })
    }
}
