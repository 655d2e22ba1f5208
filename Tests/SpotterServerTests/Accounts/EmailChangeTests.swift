import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// `POST /api/v1/me/email` and `/confirm`: the new address proves itself by a link before the email changes.
@Suite("Email change with confirmation")
struct EmailChangeTests {
    static func ask(
        _ api: APIClient, _ token: String, _ email: String, password: String = "correct horse battery"
    )
        async throws -> TestResponse
    {
        try await api.call(
            .post, "/api/v1/me/email", token: token, body: EmailChangeRequest(email: email, password: password))
    }

    static func confirm(_ api: APIClient, _ token: String, link: String) async throws -> TestResponse {
        try await api.call(
            .post, "/api/v1/me/email/confirm", token: token, body: EmailChangeConfirmation(token: link))
    }

    @Test(
        "the email changes only when the new address's link is opened, by its owner, once; the old address is told",
        arguments: StorageBackend.available)
    func change(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            let dee = try await api.signup("dee").accessToken
            let eve = try await api.signup("eve").accessToken

            // A wrong password, an address taken by someone else, or her own address changes nothing
            #expect(
                try await Self.ask(api, dee, "new@example.com", password: "wrong one").problem().errors?.map(\.field)
                    == ["password"])
            #expect(try await Self.ask(api, dee, "EVE@example.com").status == .conflict)
            #expect(try await Self.ask(api, dee, "dee@example.com").problem().errors?.map(\.field) == ["email"])
            #expect(try await Self.ask(api, dee, "new@example.com", password: "").status == .unprocessableContent)
            #expect(mailer.sent.isEmpty)

            // When Dee asks for a new address
            #expect(try await Self.ask(api, dee, "dee.new@example.com").status == .accepted)

            // Then the new address gets a link and the old one a notice; nothing has changed yet
            let link = await mailer.next()
            #expect(link?.to == "dee.new@example.com")
            let token = try #require(RecordingMailer.token(in: link))
            let notice = await mailer.next()
            #expect(notice?.to == "dee@example.com")
            #expect(notice?.link == nil)
            #expect(notice?.text.contains(token) == false)
            #expect(try await api.call(.get, "/api/v1/me", token: dee).decode(Account.self).email == "dee@example.com")

            // Eve can't use Dee's link, and trying doesn't spend it
            #expect(try await Self.confirm(api, eve, link: token).status == .unprocessableContent)

            // When Dee opens it
            let confirmed = try await Self.confirm(api, dee, link: token)
            #expect(confirmed.status == .ok)
            #expect(try confirmed.decode(Account.self).email == "dee.new@example.com")
            #expect(try await api.signin("dee.new@example.com").status == .ok)
            #expect(try await api.signin("dee@example.com").status == .unauthorized)
            // The old address hears that it happened
            #expect(await mailer.next()?.to == "dee@example.com")

            // And the link is spent
            #expect(try await Self.confirm(api, dee, link: token).status == .unprocessableContent)
            #expect(try await Self.confirm(api, dee, link: "spl_made_up").status == .unprocessableContent)
        }
    }

    @Test("an email link expires after a day", arguments: StorageBackend.available)
    func expiry(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            let fox = try await api.signup("fox").accessToken
            #expect(try await Self.ask(api, fox, "fox2@example.com").status == .accepted)
            let token = try #require(RecordingMailer.token(in: await mailer.next()))
            api.clock.advance(by: 24 * 3600 + 1)
            let later = try await api.signin("fox").decode(TokenResponse.self).accessToken
            #expect(try await Self.confirm(api, later, link: token).status == .unprocessableContent)
            #expect(
                try await api.call(.get, "/api/v1/me", token: later).decode(Account.self).email == "fox@example.com")
        }
    }
}
