import Foundation
import NIOCore
import SpotterCore
import SpotterServer
import Testing

@Suite("SMTP mailer against a local SMTP server")
struct SMTPMailerTests {
    static let digest = EmailMessage(
        to: "sam@example.com", subject: "Deine Woche auf Spotter 💪 — 3 Trainings",
        text: "Hi Sam,\nyou trained 3 times this week.\n.hidden line\n.\nKeep going!",
        html: "<p>Hi Sam,</p>\n<p>you trained <b>3 times</b> this week.</p>\n.dot at the start")

    static func configuration(
        port: Int, credentials: SMTPConfiguration.Credentials? = nil, timeout: TimeAmount = .seconds(30)
    ) -> SMTPConfiguration {
        SMTPConfiguration(
            host: "127.0.0.1", port: port, security: .none, credentials: credentials,
            fromAddress: "digest@spotter.test", fromName: "Spotter Digest", heloName: "api.spotter.test",
            timeout: timeout)
    }

    @Test("a digest arrives with its headers, its text and HTML parts and its non-ASCII subject")
    func delivers() async throws {
        // Given a relay
        let server = LocalSMTPServer()
        try await server.run { port in
            // When a digest is sent through it
            let outcome = await SMTPMailer(configuration: Self.configuration(port: port)).send(Self.digest)

            // Then it was delivered with its envelope, headers and both parts as written
            #expect(outcome == .delivered)
            let mail = try #require(await server.mailbox.messages.first)
            #expect(mail.helo == "api.spotter.test")
            #expect(mail.from == "<digest@spotter.test>")
            #expect(mail.to == "<sam@example.com>")
            let email = try ParsedEmail(mail.data)
            #expect(email.subject == Self.digest.subject)
            #expect(email.headers["from"] == "\"Spotter Digest\" <digest@spotter.test>")
            #expect(email.headers["to"] == "<sam@example.com>")
            #expect(email.headers["mime-version"] == "1.0")
            #expect(email.headers["date"]?.hasSuffix("+0000") == true)
            #expect(email.headers["message-id"]?.hasSuffix("@spotter.test>") == true)
            #expect(email.part("text/plain")?.text == Self.digest.text)
            #expect(email.part("text/html")?.text == Self.digest.html)
            #expect(mail.data.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 998 })
        }
    }

    @Test("body lines that start with a dot, or are one, arrive intact")
    func dotStuffing() async throws {
        // Given a relay and a text whose lines start with dots
        let server = LocalSMTPServer()
        let message = EmailMessage(to: "sam@example.com", subject: "dots", text: ".\n..\n.x", html: ".<br>")
        try await server.run { port in
            // When it is sent
            let outcome = await SMTPMailer(configuration: Self.configuration(port: port)).send(message)

            // Then the relay did not take any of them for the end of the data
            #expect(outcome == .delivered)
            let email = try ParsedEmail(try #require(await server.mailbox.messages.first).data)
            #expect(email.part("text/plain")?.text == ".\n..\n.x")
            #expect(email.part("text/html")?.text == ".<br>")
        }
    }

    @Test("the mailer signs in with AUTH PLAIN when the relay demands it")
    func authenticates() async throws {
        // Given a relay that wants a login
        let server = LocalSMTPServer(credentials: ("digest", "s3cret"))
        try await server.run { port in
            let credentials = SMTPConfiguration.Credentials(username: "digest", password: "s3cret")

            // When a digest is sent with the right login
            let outcome = await SMTPMailer(configuration: Self.configuration(port: port, credentials: credentials))
                .send(Self.digest)

            // Then it signed in and was delivered
            #expect(outcome == .delivered)
            #expect(await server.mailbox.logins == ["digest"])
        }
    }

    @Test("a wrong password is a failure, not worth retrying")
    func wrongPassword() async throws {
        // Given a relay that wants a login
        let server = LocalSMTPServer(credentials: ("digest", "s3cret"))
        try await server.run { port in
            let credentials = SMTPConfiguration.Credentials(username: "digest", password: "wrong")

            // When a digest is sent with the wrong password
            let outcome = await SMTPMailer(configuration: Self.configuration(port: port, credentials: credentials))
                .send(Self.digest)

            // Then it failed and nothing was accepted
            guard case .failed = outcome else { Issue.record("expected failed, got \(outcome)"); return }
            #expect(await server.mailbox.messages.isEmpty)
        }
    }

    @Test("a password is never sent without TLS to a relay that is not on this machine")
    func noPasswordInTheClear() async {
        // Given a plain-text configuration with a login for a remote relay
        var configuration = Self.configuration(port: 25, credentials: .init(username: "digest", password: "s3cret"))
        configuration.host = "mail.example.com"

        // When a digest is sent
        let outcome = await SMTPMailer(configuration: configuration).send(Self.digest)

        // Then it fails before connecting, and the configuration's description hides the password
        #expect(outcome == .failed(reason: "refusing to send credentials without TLS"))
        #expect(!configuration.description.contains("s3cret"))
        #expect(!String(reflecting: configuration.credentials).contains("s3cret"))
    }

    @Test("a recipient the relay refuses with 550 comes back as gone")
    func unknownRecipient() async throws {
        // Given a relay that does not know the recipient
        let server = LocalSMTPServer(recipientReply: "550 5.1.1 <sam@example.com>: no such user")
        try await server.run { port in
            // When a digest is sent
            let outcome = await SMTPMailer(configuration: Self.configuration(port: port)).send(Self.digest)

            // Then the address is to be dropped
            guard case .gone = outcome else { Issue.record("expected gone, got \(outcome)"); return }
        }
    }

    @Test("a 451 from the relay asks for a retry")
    func temporaryFailure() async throws {
        // Given a relay that is greylisting
        let server = LocalSMTPServer(recipientReply: "451 4.7.1 greylisted, try again later")
        try await server.run { port in
            // When a digest is sent
            let outcome = await SMTPMailer(configuration: Self.configuration(port: port)).send(Self.digest)

            // Then it is to be retried
            guard case .retry = outcome else { Issue.record("expected retry, got \(outcome)"); return }
        }
    }

    @Test("a relay that is not listening asks for a retry")
    func notListening() async {
        // Given a port nothing listens on
        // When a digest is sent there
        let outcome = await SMTPMailer(configuration: Self.configuration(port: 1)).send(Self.digest)

        // Then it is to be retried
        guard case .retry = outcome else { Issue.record("expected retry, got \(outcome)"); return }
    }

    @Test("a relay that never answers times out and asks for a retry")
    func silentRelay() async throws {
        // Given a relay that accepts the connection and says nothing
        let server = LocalSMTPServer(silent: true)
        try await server.run { port in
            // When a digest is sent with a one-second step timeout
            let started = ContinuousClock.now
            let outcome = await SMTPMailer(configuration: Self.configuration(port: port, timeout: .seconds(1)))
                .send(Self.digest)

            // Then it gives up after the timeout and asks for a retry
            guard case .retry = outcome else { Issue.record("expected retry, got \(outcome)"); return }
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}
