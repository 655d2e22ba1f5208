import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// `POST /api/v1/auth/password-reset` and `/confirm`: a mailed, single-use, expiring link that never tells
/// whether an address has an account.
@Suite("Password reset by email")
struct PasswordResetTests {
    static func ask(_ api: APIClient, _ email: String) async throws -> TestResponse {
        try await api.call(.post, "/api/v1/auth/password-reset", body: PasswordResetRequest(email: email))
    }

    static func confirm(_ api: APIClient, _ token: String, _ password: String) async throws -> TestResponse {
        try await api.call(
            .post, "/api/v1/auth/password-reset/confirm",
            body: PasswordResetConfirmation(token: token, password: password))
    }

    @Test(
        "an unknown address gets the same answer and no mail; the link sets a password once and signs out every login",
        arguments: StorageBackend.available)
    func reset(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            // Given Ana, signed in on a phone and a laptop
            let phone = try await api.signup("ana")
            let laptop = try await api.signin("ana").decode(TokenResponse.self)

            // When someone asks for an address nobody has, and then Ana asks for hers
            let unknown = try await Self.ask(api, "nobody@example.com")
            let known = try await Self.ask(api, "ANA@example.com")

            // Then both answers are the same, and the only mail is Ana's
            #expect(unknown.status == .accepted)
            #expect(known.status == .accepted)
            #expect(unknown.text == known.text)
            let mail = await mailer.next()
            #expect(mail?.to == "ANA@example.com")
            #expect(mail?.link?.hasPrefix("http://127.0.0.1:8080/reset-password?token=spl_") == true)
            let token = try #require(RecordingMailer.token(in: mail))
            #expect(mailer.sent.count == 1)

            // A weak password or a wrong token changes nothing and keeps the link
            #expect(try await Self.confirm(api, token, "short").problem().errors?.map(\.field) == ["password"])
            #expect(
                try await Self.confirm(api, "spl_wrong", "a new long one").problem().errors?.map(\.field) == ["token"])
            #expect(try await api.signin("ana").status == .ok)

            // When Ana opens the link and chooses a new password
            #expect(try await Self.confirm(api, token, "a new long one").status == .noContent)

            // Then the old password is gone, every login is signed out, and the link can't be used again
            #expect(try await api.signin("ana").status == .unauthorized)
            #expect(try await api.signin("ana", password: "a new long one").status == .ok)
            #expect(try await api.call(.get, "/api/v1/me", token: phone.accessToken).status == .unauthorized)
            #expect(try await api.call(.get, "/api/v1/me", token: laptop.accessToken).status == .unauthorized)
            let reuse = try await Self.confirm(api, token, "another long one")
            #expect(reuse.status == .unprocessableContent)
            #expect(try reuse.problem().errors?.map(\.field) == ["token"])
            #expect(try await api.signin("ana", password: "another long one").status == .unauthorized)
        }
    }

    @Test("a reset link expires after an hour, and a newer one spends the older", arguments: StorageBackend.available)
    func expiry(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            _ = try await api.signup("bea")
            _ = try await Self.ask(api, "bea@example.com")
            let first = try #require(RecordingMailer.token(in: await mailer.next()))
            _ = try await Self.ask(api, "bea@example.com")
            let second = try #require(RecordingMailer.token(in: await mailer.next()))
            #expect(first != second)

            // When the second is used, the first is spent with it
            #expect(try await Self.confirm(api, second, "a new long one").status == .noContent)
            #expect(try await Self.confirm(api, first, "another long one").status == .unprocessableContent)

            // And a fresh link opened after an hour is refused
            _ = try await Self.ask(api, "bea@example.com")
            let late = try #require(RecordingMailer.token(in: await mailer.next()))
            api.clock.advance(by: 3601)
            #expect(try await Self.confirm(api, late, "a third long one").status == .unprocessableContent)
            #expect(try await api.signin("bea", password: "a new long one").status == .ok)
        }
    }

    @Test("asking is limited per address, found or not, and per client", arguments: StorageBackend.available)
    func limited(backend: StorageBackend) async throws {
        let mailer = RecordingMailer()
        try await TestApp.run(backend, configure: { $0.delivery.accountMailer = mailer }) { api in
            for _ in 0..<5 { #expect(try await Self.ask(api, "ghost@example.com").status == .accepted) }
            let refused = try await Self.ask(api, "ghost@example.com")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try await Self.ask(api, "not an address").problem().errors?.map(\.field) == ["email"])
            #expect(mailer.sent.isEmpty)
        }
    }

    @Test(
        "without a mail relay the server says it can't send, rather than pretend", arguments: StorageBackend.available)
    func noMail(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            _ = try await api.signup("cyd")
            let response = try await Self.ask(api, "cyd@example.com")
            #expect(response.status == .serviceUnavailable)
            #expect(try response.problem().detail?.contains("cannot send email") == true)
        }
    }
}
