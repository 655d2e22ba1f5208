import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// What the account pages say when they refuse a form: a plain sentence, under the input it is about.
@Suite("The account pages' refusals")
struct WebAccountErrorsTests {
    @Test(
        "sign-up, password, email and profile refusals are sentences under their fields, never 'Field: rule'",
        arguments: StorageBackend.available)
    func fieldSentences(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            // Given Ida, signed in, and Jo, signing up with Ida's name and no real address
            var ida = WebBrowser(api)
            try await ida.signUp("ida")
            var jo = WebBrowser(api)
            try await jo.get("/signup")
            let signup = try await jo.post(
                "/signup", [("username", "ida"), ("email", "jo at home"), ("password", "correct horse battery")])

            // Then each field says what is wrong with it
            #expect(Self.error(of: "email", in: signup.text) == "The email is not an email address.")
            try await jo.get("/signup")
            let taken = try await jo.post(
                "/signup", [("username", "ida"), ("email", "jo@example.com"), ("password", "correct horse battery")])
            #expect(Self.error(of: "username", in: taken.text) == "This username is already taken.")

            // When Ida changes her password with a wrong current one, then with a short new one
            try await ida.get("/settings")
            let wrong = try await ida.post(
                "/settings/password", [("current_password", "nope"), ("new_password", "a new long one")])
            try await ida.get("/settings")
            let short = try await ida.post(
                "/settings/password", [("current_password", "correct horse battery"), ("new_password", "short")])
            #expect(Self.error(of: "current-password", in: wrong.text) == "The current password is not right.")
            // (the long settings page lists it at its top too, a link to the input)
            #expect(wrong.text.contains(##"<a href="#current-password">The current password is not right.</a>"##))
            #expect(Self.error(of: "new-password", in: short.text) == "The new password must be at least 8 characters.")

            // When she asks for a new email with a wrong password, and names herself badly
            try await ida.get("/settings")
            let email = try await ida.post("/settings/email", [("email", "ida.new@example.com"), ("password", "no")])
            try await ida.get("/settings")
            let name = try await ida.post("/settings/profile", [("display_name", " "), ("time_zone", "UTC")])
            #expect(Self.error(of: "email-password", in: email.text) == "The password is not right.")
            #expect(Self.error(of: "display-name", in: name.text) == "The display name must be 1 to 50 characters.")

            // And no page glues a field's label to a rule
            for page in [signup, taken, wrong, short, email, name] {
                #expect(page.status == .unprocessableContent || page.status == .conflict)
                #expect(!page.text.contains(": is "), "\(page.text)")
                #expect(!page.text.contains("Password:") && !page.text.contains("Email:"))
            }
        }
    }

    @Test(
        "a spent link says so in a sentence; a short new password is marked on its field",
        arguments: StorageBackend.available)
    func linkSentences(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            // Given a reset link for Gil
            _ = try await api.signup("gil")
            var gil = WebBrowser(api)
            try await gil.get("/forgot-password")
            try await gil.post("/forgot-password", [("email", "gil@example.com")])
            let token = try #require(RecordingMailer.token(in: await mailer.next()))

            // When Gil sets a password too short, then opens a link that is no link, and confirms an email with it
            try await gil.get("/reset-password?token=\(token)")
            let short = try await gil.post("/reset-password", [("token", token), ("password", "short")])
            try await gil.get("/reset-password?token=spl_nope")
            let spent = try await gil.post("/reset-password", [("token", "spl_nope"), ("password", "a new long one")])
            try await gil.get("/confirm-email?token=spl_nope")
            let confirm = try await gil.post("/confirm-email", [("token", "spl_nope")])

            // Then the short password is marked under its input, and the links' refusal reads as a sentence
            #expect(Self.error(of: "password", in: short.text) == "The password must be at least 8 characters.")
            let sentence = "This link is not valid: it was used already, has expired, or is wrong."
            for page in [spent, confirm] {
                #expect(page.status == .unprocessableContent)
                #expect(page.text.contains("<li>\(sentence)</li>"), "\(page.text)")
                #expect(!page.text.contains("Token:"))
            }
        }
    }

    /// The sentence under the input `id` (`<p class="field-error" id="<id>-error">…</p>`), if the input is
    /// marked invalid and points at it.
    static func error(of id: String, in page: String) -> String? {
        guard let input = page.range(of: #"id="\#(id)""#),
            page[input.upperBound...].prefix(while: { $0 != ">" }).contains(#"aria-invalid="true""#),
            let start = page.range(of: #"<p class="field-error" id="\#(id)-error">"#)
        else { return nil }
        return String(page[start.upperBound...].prefix(while: { $0 != "<" }))
    }
}
