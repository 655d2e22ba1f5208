import Foundation
import SpotterCore
import Testing

@testable import SpotterServer

@Suite("SMTP session state machine")
struct SMTPSessionTests {
    static func session(security: SMTPConfiguration.Security, host: String = "mail.example.com") -> SMTPSession {
        let configuration = SMTPConfiguration(
            host: host, port: 587, security: security, credentials: .init(username: "u", password: "p"),
            fromAddress: "digest@spotter.test", heloName: "api.spotter.test")
        return SMTPSession(
            configuration: configuration, recipient: "sam@example.com", message: "Subject: x\r\n\r\nhi\r\n")
    }

    static func reply(_ code: Int, _ lines: String...) -> SMTPReply { SMTPReply(code: code, lines: lines) }

    @Test("with STARTTLS the session upgrades, greets again, and only then signs in")
    func startTLS() {
        // Given a session that must use STARTTLS
        var session = Self.session(security: .startTLS)

        // When the relay greets and offers STARTTLS and AUTH PLAIN
        #expect(session.receive(Self.reply(220, "ready")) == .send("EHLO api.spotter.test"))
        #expect(session.receive(Self.reply(250, "hi", "STARTTLS", "AUTH PLAIN LOGIN")) == .send("STARTTLS"))
        #expect(session.receive(Self.reply(220, "go ahead")) == .startTLS)

        // Then after TLS it greets again and signs in over TLS
        #expect(session.tlsEstablished() == .send("EHLO api.spotter.test"))
        #expect(session.receive(Self.reply(250, "hi", "AUTH PLAIN")) == .send("AUTH PLAIN AHUAcA=="))
        #expect(session.receive(Self.reply(235, "ok")) == .send("MAIL FROM:<digest@spotter.test>"))
    }

    @Test("a relay that does not offer STARTTLS is refused rather than spoken to in the clear")
    func noStartTLS() {
        // Given a session that must use STARTTLS
        var session = Self.session(security: .startTLS)
        _ = session.receive(Self.reply(220, "ready"))

        // When the relay's EHLO reply lacks STARTTLS
        let action = session.receive(Self.reply(250, "hi", "AUTH PLAIN"))

        // Then the session ends without sending the password
        #expect(action == .finish(.failed(reason: "relay does not offer STARTTLS")))
    }

    @Test("a full mailbox (552) on RCPT is temporary, a policy refusal (5.7.1) a failure, an unknown user gone")
    func recipientReplies() {
        func outcome(_ reply: SMTPReply) -> SMTPSession.Action {
            var session = Self.session(security: .tls)
            _ = session.receive(Self.reply(220, "ready"))
            _ = session.receive(Self.reply(250, "hi", "AUTH PLAIN"))
            _ = session.receive(Self.reply(235, "ok"))
            _ = session.receive(Self.reply(250, "ok"))
            return session.receive(reply)
        }
        #expect(
            outcome(Self.reply(552, "mailbox full"))
                == .finish(.retry(reason: "RCPT TO answered 552 mailbox full", after: nil)))
        #expect(
            outcome(Self.reply(550, "5.7.1 relaying denied"))
                == .finish(.failed(reason: "RCPT TO answered 550 5.7.1 relaying denied")))
        #expect(
            outcome(Self.reply(550, "5.1.1 no such user"))
                == .finish(.gone(reason: "RCPT TO answered 550 5.1.1 no such user")))
    }

    @Test("dot-stuffing doubles every leading dot and ends the data with a lone dot")
    func dotStuffing() {
        #expect(SMTPSession.dotStuffed(".a\r\nb\r\n.\r\n..c\r\n") == "..a\r\nb\r\n..\r\n...c\r\n.\r\n")
    }

    @Test("quoted-printable keeps lines within 76 characters and escapes what 7-bit relays would mangle")
    func quotedPrintable() {
        let encoded = QuotedPrintable.encode(String(repeating: "é", count: 60) + " \nend =")
        #expect(encoded.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(encoded.hasSuffix("=20\r\nend =3D"))
    }
}
