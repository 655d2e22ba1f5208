import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's admin page")
struct WebAdminTests {
    @Test(
        "an admin finds a person, makes a reset link shown once that works once, and sets their email",
        arguments: StorageBackend.available)
    func adminHelpsBackIn(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            // Given Kim, an admin, and Lou, who forgot her password on a server that cannot mail
            var kim = WebBrowser(api)
            try await kim.signUp("kim")
            _ = try await AdminService(storage: api.storage, clock: api.clock).setRole("kim", .admin)
            _ = try await api.signup("lou")
            _ = try await api.signup("max")

            // When Kim looks Lou up
            let found = try await kim.get("/admin?username=lou")

            // Then she sees Lou and her email, with a form for each
            #expect(found.status == .ok)
            #expect(found.text.contains("lou@example.com"))
            #expect(found.text.contains("action=\"/admin/people/lou/reset-link\""))
            #expect(found.text.contains("action=\"/admin/people/lou/email\""))
            let nobody = try await kim.get("/admin?username=nobody")
            #expect(nobody.status == .notFound)
            #expect(nobody.text.contains("There is no account named nobody."))

            // A form posted from elsewhere (no CSRF token) makes no link
            try await kim.get("/admin?username=lou")
            let forged = try await kim.post("/admin/people/lou/reset-link", csrf: false)
            #expect(forged.status == .forbidden)
            #expect(Self.link(in: forged.text) == nil)

            // When she makes Lou a reset link
            try await kim.get("/admin?username=lou")
            let made = try await kim.post("/admin/people/lou/reset-link")

            // Then the page shows it, once, uncached; no later page shows it again
            #expect(made.status == .ok)
            #expect(made.headers[.cacheControl] == "no-store")
            let link = try #require(Self.link(in: made.text))
            #expect(link.contains("/reset-password?token="))
            #expect(try await kim.get("/admin?username=lou").text.contains(link) == false)

            // and the link sets Lou's new password once
            var lou = WebBrowser(api)
            let path = String(link[link.range(of: "/reset-password")!.lowerBound...])
            try await lou.get(path)
            let token = String(path.split(separator: "=").last!)
            let reset = try await lou.post("/reset-password", [("token", token), ("password", "lou's new one")])
            #expect(reset.headers[.location] == "/signin?reset=1")
            #expect(try await api.signin("lou", password: "lou's new one").status == .ok)
            let again = try await lou.post("/reset-password", [("token", token), ("password", "another new one")])
            #expect(again.status == .unprocessableContent)

            // When she sets Lou's email, then tries Max's address and one that is no address
            try await kim.get("/admin?username=lou")
            let set = try await kim.post("/admin/people/lou/email", [("email", "lou@new.example")])
            #expect(set.headers[.location] == "/admin?username=lou&saved=email")
            #expect(try await kim.get("/admin?username=lou&saved=email").text.contains("lou@new.example"))
            let taken = try await kim.post("/admin/people/lou/email", [("email", "max@example.com")])
            try await kim.get("/admin?username=lou")
            let bad = try await kim.post("/admin/people/lou/email", [("email", "lou at home")])

            // Then the new address signs Lou in, the old one is told by mail, and her inbox has an alert; the
            // others are refused beside the email field, in words
            #expect(try await api.signin("lou@new.example", password: "lou's new one").status == .ok)
            let notice = await mailer.next()
            #expect(notice?.to == "lou@example.com")
            #expect(notice?.text.contains("changed the email of your account lou to lou@new.example") == true)
            let account = try #require(try await api.storage.accounts.find(username: "lou"))
            let inbox = try await NotificationService(storage: api.storage, clock: api.clock)
                .inbox(account, page: PageRequest())
            #expect(inbox.items.contains { $0.type == .securityEmailChanged })
            #expect(taken.status == .conflict)
            #expect(taken.text.contains(#"id="person-new-email-error">This email is already taken by another"#))
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains(#"id="person-new-email-error">The email is not an email address.<"#))
            #expect(bad.text.contains("value=\"lou at home\""), "what was typed stays")
        }
    }

    @Test("a member, or someone signed out, cannot use the admin page", arguments: StorageBackend.available)
    func othersCannot(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ned, a member, Lou, and someone signed out
            var ned = WebBrowser(api)
            try await ned.signUp("ned")
            _ = try await api.signup("lou")
            var stranger = WebBrowser(api)

            // When Ned opens the admin page, looks Lou up, and posts its forms
            let page = try await ned.get("/admin?username=lou")
            try await ned.get("/")
            let link = try await ned.post("/admin/people/lou/reset-link")
            try await ned.get("/")
            let email = try await ned.post("/admin/people/lou/email", [("email", "ned@elsewhere.example")])

            // Then each is refused (403), shows nothing of Lou's, and changes nothing
            for response in [page, link, email] {
                #expect(response.status == .forbidden)
                #expect(!response.text.contains("lou@example.com"))
                #expect(!response.text.contains("reset-password?token="))
            }
            #expect(try await api.storage.accounts.find(username: "lou")?.email == "lou@example.com")
            #expect(try await api.signin("lou").status == .ok)

            // and someone signed out (with a form token from the sign-in page) is sent to sign in, with nothing done
            #expect(try await stranger.get("/admin?username=lou").headers[.location]?.hasPrefix("/signin") == true)
            try await stranger.get("/signin")
            let signedOut = try await stranger.post("/admin/people/lou/reset-link")
            #expect(signedOut.status == .seeOther)
            #expect(signedOut.headers[.location]?.hasPrefix("/signin") == true)
            #expect(!signedOut.text.contains("reset-password?token="))
            #expect(try await api.signin("lou").status == .ok)
        }
    }

    /// The reset link the page shows (`<code id="reset-link">…</code>`).
    static func link(in page: String) -> String? {
        guard let start = page.range(of: #"<code id="reset-link">"#) else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "<" })
    }
}
