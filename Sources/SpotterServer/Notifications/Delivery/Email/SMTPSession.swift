import Foundation
import SpotterCore

/// The client's side of one mail transaction
/// ([RFC 5321 §3](https://www.rfc-editor.org/rfc/rfc5321#section-3)) as a pure state machine: each server
/// reply goes in, the next thing to do comes out. The socket work lives in ``SMTPMailer``; this decides, and
/// can be tested without a network.
///
/// greeting → `EHLO` → (`STARTTLS` → TLS → `EHLO`) → (`AUTH PLAIN`) → `MAIL FROM` → `RCPT TO` → `DATA` →
/// message → `QUIT`.
struct SMTPSession {
    enum Action: Equatable {
        /// Send this command line; the connection adds CRLF.
        case send(String)
        /// Send the message: already dot-stuffed and ending with the `.` line (RFC 5321 §4.5.2).
        case sendMessage(String)
        /// Start TLS on the connection, then call ``tlsEstablished()``.
        case startTLS
        /// Done: say `QUIT` and close.
        case finish(DeliveryOutcome)
    }

    private enum State { case greeting, ehlo, startTLS, handshake, auth, mailFrom, rcptTo, data, message, done }

    private let configuration: SMTPConfiguration
    private let recipient: String
    private let message: String
    private var state = State.greeting
    private var secure: Bool

    /// - Parameter message: the rendered RFC 5322 message with CRLF line ends.
    init(configuration: SMTPConfiguration, recipient: String, message: String) {
        self.configuration = configuration
        self.recipient = recipient
        self.message = message
        self.secure = configuration.security == .tls
    }

    mutating func receive(_ reply: SMTPReply) -> Action {
        switch state {
        case .greeting:
            guard reply.code == 220 else { return refused(reply, by: "greeting") }
            state = .ehlo
            return .send("EHLO \(configuration.heloName)")
        case .ehlo:
            guard reply.code == 250 else { return refused(reply, by: "EHLO") }
            let keywords = reply.lines.dropFirst().map { $0.uppercased() }
            guard configuration.security == .startTLS, !secure else { return authenticateOrSend(keywords) }
            guard keywords.contains("STARTTLS") else { return finish(.failed(reason: "relay does not offer STARTTLS")) }
            state = .startTLS
            return .send("STARTTLS")
        case .startTLS:
            guard reply.code == 220 else { return refused(reply, by: "STARTTLS") }
            state = .handshake
            return .startTLS
        case .auth:
            guard reply.code == 235 else { return refused(reply, by: "AUTH") }
            return mailFrom()
        case .mailFrom:
            guard reply.code == 250 else { return refused(reply, by: "MAIL FROM") }
            state = .rcptTo
            return .send("RCPT TO:<\(recipient)>")
        case .rcptTo:
            guard reply.code == 250 || reply.code == 251 else { return recipientRefused(reply) }
            state = .data
            return .send("DATA")
        case .data:
            guard reply.code == 354 else { return refused(reply, by: "DATA") }
            state = .message
            return .sendMessage(Self.dotStuffed(message))
        case .message:
            guard reply.code == 250 else { return refused(reply, by: "the message") }
            return finish(.delivered)
        case .handshake, .done:
            return finish(.failed(reason: "unexpected reply \(reply.code) \(reply.text.prefix(200))"))
        }
    }

    /// TLS is up after `STARTTLS`: everything said before it is forgotten, so greet again (RFC 3207 §4.2).
    mutating func tlsEstablished() -> Action {
        secure = true
        state = .ehlo
        return .send("EHLO \(configuration.heloName)")
    }

    private mutating func authenticateOrSend(_ keywords: [String]) -> Action {
        guard let credentials = configuration.credentials else { return mailFrom() }
        guard secure || configuration.isLoopback else {
            return finish(.failed(reason: "refusing to send credentials without TLS"))
        }
        let offersPlain = keywords.contains {
            ($0.hasPrefix("AUTH ") || $0.hasPrefix("AUTH=")) && $0.dropFirst(5).split(separator: " ").contains("PLAIN")
        }
        guard offersPlain else { return finish(.failed(reason: "relay does not offer AUTH PLAIN")) }
        state = .auth
        // RFC 4616: an empty authorization identity, then the username and password, NUL-separated.
        let token = Data("\0\(credentials.username)\0\(credentials.password)".utf8).base64EncodedString()
        return .send("AUTH PLAIN \(token)")
    }

    private mutating func mailFrom() -> Action {
        state = .mailFrom
        return .send("MAIL FROM:<\(configuration.fromAddress)>")
    }

    /// A recipient the relay knows is not there is gone; a full mailbox (552) is temporary (RFC 5321
    /// §4.5.3.1.10); a policy refusal (5.7.x) is a failure of this message, not of the address.
    private mutating func recipientRefused(_ reply: SMTPReply) -> Action {
        let noSuchAddress: Bool
        if let status = reply.enhancedStatus {
            noSuchAddress = status.klass == 5 && (status.subject == 1 || (status.subject == 2 && status.detail == 1))
        } else {
            noSuchAddress = [550, 551, 553].contains(reply.code)
        }
        if reply.code == 552 { return finish(.retry(reason: "RCPT TO answered \(Self.said(reply))", after: nil)) }
        if noSuchAddress { return finish(.gone(reason: "RCPT TO answered \(Self.said(reply))")) }
        return refused(reply, by: "RCPT TO")
    }

    /// 4xx is worth retrying (RFC 5321 §4.2.1); 5xx will be refused again.
    private mutating func refused(_ reply: SMTPReply, by step: String) -> Action {
        let reason = "\(step) answered \(Self.said(reply))"
        return finish((400..<500).contains(reply.code) ? .retry(reason: reason, after: nil) : .failed(reason: reason))
    }

    private mutating func finish(_ outcome: DeliveryOutcome) -> Action {
        state = .done
        return .finish(outcome)
    }

    private static func said(_ reply: SMTPReply) -> String { "\(reply.code) \(reply.text.prefix(200))" }

    /// A line that starts with `.` gets another, so the server never takes it for the end (RFC 5321 §4.5.2).
    static func dotStuffed(_ message: String) -> String {
        var body = message.replacingOccurrences(of: "\r\n.", with: "\r\n..")
        if body.hasPrefix(".") { body = "." + body }
        if !body.hasSuffix("\r\n") { body += "\r\n" }
        return body + ".\r\n"
    }
}
