import Foundation
import NIOConcurrencyHelpers
import SpotterCore
import SpotterKit
import SpotterModels
import Testing

/// The client's password-reset and email-change calls, against the real server with a mailer that keeps mail.
@Suite("SpotterClient password reset and email change")
struct AccountLinksClientTests {
    final class Inbox: AccountMailer {
        let mails = NIOLockedValueBox<[AccountMail]>([])
        let stream: AsyncStream<AccountMail>
        let continuation: AsyncStream<AccountMail>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream(of: AccountMail.self) }

        func send(_ mail: AccountMail) async {
            mails.withLockedValue { $0.append(mail) }
            continuation.yield(mail)
        }

        /// The token of the next mail with a link.
        func nextToken() async -> String? {
            for await mail in stream {
                if let link = mail.link, let range = link.range(of: "token=") {
                    return String(link[range.upperBound...])
                }
            }
            return nil
        }
    }

    @Test("a reset link sets a new password; an email link changes the email")
    func links() async throws {
        let inbox = Inbox()
        try await LiveServer.run(configure: { $0.delivery.accountMailer = inbox }) { url, _ in
            let client = SpotterClient(baseURL: url)
            try await client.signUp(email: "kim@example.com", username: "kim", password: "correct horse battery")

            // Email change, confirmed by the link's token
            try await client.requestEmailChange(to: "kim.new@example.com", password: "correct horse battery")
            let emailToken = try #require(await inbox.nextToken())
            #expect(try await client.confirmEmailChange(token: emailToken).email == "kim.new@example.com")

            // Password reset, from another device that isn't signed in
            let other = SpotterClient(baseURL: url)
            try await other.requestPasswordReset(email: "kim.new@example.com")
            try await other.requestPasswordReset(email: "nobody@example.com")  // the same answer: no error
            let resetToken = try #require(await inbox.nextToken())
            try await other.resetPassword(token: resetToken, newPassword: "a new long one")
            #expect(try await other.signIn(login: "kim", password: "a new long one").username == "kim")
            await #expect(throws: SpotterClientError.self) {
                try await other.resetPassword(token: resetToken, newPassword: "yet another one")
            }
        }
    }
}
