import Foundation
import NIOSSL
import SpotterCore
import SpotterServer
import Testing

@Suite("SMTP mailer over TLS against a local SMTP server")
struct SMTPTLSTests {
    static func configuration(
        port: Int, security: SMTPConfiguration.Security, tls: TLSConfiguration
    ) -> SMTPConfiguration {
        SMTPConfiguration(
            host: "localhost", port: port, security: security,
            credentials: .init(username: "digest", password: "s3cret"), fromAddress: "digest@spotter.test",
            heloName: "api.spotter.test", tlsConfiguration: tls)
    }

    @Test("over STARTTLS the mailer upgrades before it signs in, and the message travels encrypted")
    func startTLS() async throws {
        // Given a relay that offers STARTTLS and refuses AUTH and MAIL before it
        let certificate = try TestCertificate()
        let server = LocalSMTPServer(tls: .startTLS(certificate), credentials: ("digest", "s3cret"))
        try await server.run { port in
            // When a digest is sent with STARTTLS, trusting the relay's certificate
            let mailer = SMTPMailer(
                configuration: Self.configuration(
                    port: port, security: .startTLS, tls: certificate.clientConfiguration))
            let outcome = await mailer.send(SMTPMailerTests.digest)

            // Then it signed in and delivered over TLS
            #expect(outcome == .delivered)
            #expect(await server.mailbox.logins == ["digest"])
            let mail = try #require(await server.mailbox.messages.first)
            #expect(mail.secure)
            #expect(try ParsedEmail(mail.data).part("text/plain")?.text == SMTPMailerTests.digest.text)
        }
    }

    @Test("over implicit TLS the message travels encrypted from the first byte")
    func implicitTLS() async throws {
        // Given a relay that speaks TLS from the start
        let certificate = try TestCertificate()
        let server = LocalSMTPServer(tls: .implicit(certificate), credentials: ("digest", "s3cret"))
        try await server.run { port in
            // When a digest is sent over TLS
            let mailer = SMTPMailer(
                configuration: Self.configuration(port: port, security: .tls, tls: certificate.clientConfiguration))
            let outcome = await mailer.send(SMTPMailerTests.digest)

            // Then it arrived over TLS
            #expect(outcome == .delivered)
            let mail = try #require(await server.mailbox.messages.first)
            #expect(mail.secure)
        }
    }

    @Test("a relay whose certificate is not trusted gets neither the password nor the message")
    func untrustedCertificate() async throws {
        // Given a relay with a self-signed certificate the client does not trust
        let server = LocalSMTPServer(tls: .startTLS(try TestCertificate()), credentials: ("digest", "s3cret"))
        try await server.run { port in
            // When a digest is sent with the system's trust roots
            let mailer = SMTPMailer(
                configuration: Self.configuration(
                    port: port, security: .startTLS, tls: .makeClientConfiguration()))
            let outcome = await mailer.send(SMTPMailerTests.digest)

            // Then the handshake fails, it is to be retried, and the relay saw no login and no message
            guard case .retry = outcome else { Issue.record("expected retry, got \(outcome)"); return }
            #expect(await server.mailbox.logins.isEmpty)
            #expect(await server.mailbox.messages.isEmpty)
        }
    }
}
