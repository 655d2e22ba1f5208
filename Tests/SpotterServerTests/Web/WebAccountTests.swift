import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's account pages")
struct WebAccountTests {
    @Test(
        "forgot password: the same page for any address, the mailed link sets a new password and signs every browser out",
        arguments: StorageBackend.available)
    func forgotPassword(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            var gil = WebBrowser(api)
            try await gil.signUp("gil")
            var stranger = WebBrowser(api)
            try await stranger.get("/forgot-password")
            #expect(stranger.lastPage.contains("Mail me a link"))

            // When a stranger asks for an unknown address and for Gil's
            let unknown = try await stranger.post("/forgot-password", [("email", "nobody@example.com")])
            try await stranger.get("/forgot-password")
            let known = try await stranger.post("/forgot-password", [("email", "gil@example.com")])

            // Then the pages say the same, but for the address typed
            #expect(unknown.status == .ok)
            #expect(known.status == .ok)
            #expect(
                unknown.text.replacingOccurrences(of: "nobody@example.com", with: "X")
                    == known.text.replacingOccurrences(of: "gil@example.com", with: "X"))
            let token = try #require(RecordingMailer.token(in: await mailer.next()))

            // When Gil opens the link: the token goes into the form, and the form sets the password
            var phone = WebBrowser(api)
            let page = try await phone.get("/reset-password?token=\(token)")
            #expect(page.text.contains("value=\"\(token)\""))
            let weak = try await phone.post("/reset-password", [("token", token), ("password", "short")])
            #expect(weak.status == .unprocessableContent)
            #expect(weak.text.contains("value=\"\(token)\""), "the link stays in the form")
            let done = try await phone.post("/reset-password", [("token", token), ("password", "a new long one")])
            #expect(done.headers[.location] == "/signin?reset=1")

            // Then Gil's signed-in browser is signed out, and the link is spent
            #expect(try await gil.get("/settings").headers[.location]?.hasPrefix("/signin") == true)
            let again = try await phone.post("/reset-password", [("token", token), ("password", "another long one")])
            #expect(again.status == .unprocessableContent)
            #expect(again.text.contains("not valid"))
            #expect(try await api.signin("gil", password: "a new long one").status == .ok)
        }
    }

    @Test("without a mail relay the forgot-password page says so", arguments: StorageBackend.available)
    func noMail(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var hal = WebBrowser(api)
            let page = try await hal.get("/forgot-password")
            #expect(page.text.contains("can't send email"))
            #expect(!page.text.contains("Mail me a link"))
        }
    }

    @Test(
        "settings change the password and, by a mailed link, the email; units and time zone save",
        arguments: StorageBackend.available)
    func settings(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            var ida = WebBrowser(api)
            try await ida.signUp("ida")
            let other = try await api.signin("ida").decode(TokenResponse.self)
            let page = try await ida.get("/settings")
            #expect(page.text.contains("<option value=\"Europe/Berlin\">Europe/Berlin</option>"))
            #expect(page.text.contains("data-browser-zone=\"suggest\""), "still on UTC: the browser's zone is offered")
            #expect(page.text.contains("not set up on this server"), "no push on this server")

            // Units and time zone
            let saved = try await ida.post(
                "/settings/profile",
                [
                    ("display_name", "Ida"), ("bio", ""), ("privacy", "public"), ("units", "lb"),
                    ("time_zone", "America/New_York"),
                ])
            #expect(saved.headers[.location] == "/settings?saved=1")
            let me = try await api.call(.get, "/api/v1/me", token: other.accessToken).decode(Account.self)
            #expect(me.units == .lb)
            #expect(me.timeZone == "America/New_York")
            try await ida.get("/settings")
            #expect(!ida.lastPage.contains("data-browser-zone=\"suggest\""))
            let badZone = try await ida.post(
                "/settings/profile", [("display_name", "Ida"), ("time_zone", "Mars/Base")])
            #expect(badZone.status == .unprocessableContent)

            // Password: a wrong current one is refused; a right one signs out the other login only
            try await ida.get("/settings")
            let wrong = try await ida.post(
                "/settings/password", [("current_password", "nope"), ("new_password", "a new long one")])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"id="current-password-error">The current password is not right."#))
            let changed = try await ida.post(
                "/settings/password",
                [("current_password", "correct horse battery"), ("new_password", "a new long one")])
            #expect(changed.headers[.location] == "/settings?saved=password")
            #expect(try await ida.get("/settings").status == .ok, "this browser stays signed in")
            #expect(try await api.call(.get, "/api/v1/me", token: other.accessToken).status == .unauthorized)

            // Email: a wrong password keeps the address typed; a right one mails a link to it
            let refused = try await ida.post(
                "/settings/email", [("email", "ida.new@example.com"), ("password", "not it")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("value=\"ida.new@example.com\""))
            let asked = try await ida.post(
                "/settings/email", [("email", "ida.new@example.com"), ("password", "a new long one")])
            #expect(asked.headers[.location] == "/settings?saved=email")
            let token = try #require(RecordingMailer.token(in: await mailer.next()))
            #expect(try await ida.get("/settings").text.contains("ida@example.com"))
            try await ida.get("/confirm-email?token=\(token)")
            let confirmed = try await ida.post("/confirm-email", [("token", token)])
            #expect(confirmed.headers[.location] == "/settings?saved=email-confirmed")
            #expect(try await ida.get("/settings").text.contains("ida.new@example.com"))
        }
    }

    @Test(
        "sign-in returns to the page that asked for it, and never to another site",
        arguments: StorageBackend.available)
    func returnTo(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            _ = try await api.signup("joe")
            var jo = WebBrowser(api)

            // When Jo, signed out, opens the compose page
            let sent = try await jo.get("/compose?kind=note")
            #expect(sent.status == .seeOther)
            #expect(sent.headers[.location] == "/signin?return_to=/compose%3Fkind%3Dnote")
            try await jo.get(try #require(sent.headers[.location]))
            #expect(jo.lastPage.contains("name=\"return_to\" value=\"/compose?kind=note\""))
            let signedIn = try await jo.post(
                "/signin",
                [("login", "joe"), ("password", "correct horse battery"), ("return_to", "/compose?kind=note")])
            // Then sign-in lands there
            #expect(signedIn.headers[.location] == "/compose?kind=note")

            // And an address elsewhere is never followed
            for evil in ["https://evil.example/", "//evil.example", "/\\evil.example", "http:/evil", "/signin"] {
                var mallory = WebBrowser(api)
                try await mallory.get(
                    "/signin?return_to=\(evil.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
                #expect(!mallory.lastPage.contains("name=\"return_to\""), "\(evil)")
                let response = try await mallory.post(
                    "/signin", [("login", "joe"), ("password", "correct horse battery"), ("return_to", evil)])
                #expect(response.headers[.location] == "/", "\(evil)")
            }
        }
    }

    @Test(
        "a new account starts in the browser's time zone, which the sign-up form carries",
        arguments: StorageBackend.available)
    func signupTimeZone(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var kai = WebBrowser(api)
            try await kai.get("/signup")
            #expect(kai.lastPage.contains("data-browser-zone=\"fill\""))
            let response = try await kai.post(
                "/signup",
                [
                    ("username", "kai"), ("email", "kai@example.com"), ("password", "correct horse battery"),
                    ("time_zone", "Asia/Tokyo"),
                ])
            #expect(response.status == .seeOther)
            let token = try await api.signin("kai").decode(TokenResponse.self).accessToken
            #expect(try await api.call(.get, "/api/v1/me", token: token).decode(Account.self).timeZone == "Asia/Tokyo")
            // A zone that isn't one doesn't fail sign-up; the account stays on UTC.
            var lea = WebBrowser(api)
            try await lea.get("/signup")
            let other = try await lea.post(
                "/signup",
                [
                    ("username", "lea"), ("email", "lea@example.com"), ("password", "correct horse battery"),
                    ("time_zone", "Mars/Base"),
                ])
            #expect(other.status == .seeOther)
            let leaToken = try await api.signin("lea").decode(TokenResponse.self).accessToken
            #expect(try await api.call(.get, "/api/v1/me", token: leaToken).decode(Account.self).timeZone == "UTC")
        }
    }

    @Test("a mailed link's token never reaches the log, opened or used", arguments: StorageBackend.available)
    func tokensStayOutOfLogs(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        let capture = LogCapture()
        try await TestApp.run(
            backend, logger: capture.logger(), configure: { $0.delivery.accountMailer = mailer }
        ) { api in
            _ = try await api.signup("max")
            var max = WebBrowser(api)
            try await max.get("/forgot-password")
            try await max.post("/forgot-password", [("email", "max@example.com")])
            let token = try #require(RecordingMailer.token(in: await mailer.next()))
            try await max.get("/reset-password?token=\(token)")
            try await max.post("/reset-password", [("token", token), ("password", "a new long one")])
            try await max.post("/reset-password", [("token", token), ("password", "a new long one")])
            #expect(!capture.all.isEmpty, "the access log was captured")
            #expect(!capture.all.contains { $0.contains(token) || $0.contains(String(token.dropFirst(4))) })
        }
    }
}
