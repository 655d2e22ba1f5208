import NIOCore
import NIOSSL

/// Where and how ``SMTPMailer`` hands mail to the relay that delivers it
/// ([RFC 5321](https://www.rfc-editor.org/rfc/rfc5321)).
///
/// ```swift
/// let smtp = SMTPConfiguration(
///     host: "smtp.example.com", port: 587, security: .startTLS,
///     credentials: .init(username: "digest", password: secret),
///     fromAddress: "digest@spotter.club", fromName: "Spotter", heloName: "api.spotter.club")
/// ```
public struct SMTPConfiguration: Sendable, CustomStringConvertible {
    /// How the connection is protected.
    public enum Security: Sendable, Equatable {
        /// Plain text throughout: only for a relay on this machine or a private network.
        case none
        /// Plain connect, then `STARTTLS` ([RFC 3207](https://www.rfc-editor.org/rfc/rfc3207)), usually port 587.
        /// A relay that does not offer it is refused rather than spoken to in the clear.
        case startTLS
        /// TLS from the first byte ([RFC 8314 §3.3](https://www.rfc-editor.org/rfc/rfc8314#section-3.3)), port 465.
        case tls
    }

    /// The login for `AUTH PLAIN` ([RFC 4616](https://www.rfc-editor.org/rfc/rfc4616)); printing it shows
    /// the username only.
    public struct Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        public var description: String { "Credentials(username: \(username), password: <redacted>)" }
        public var debugDescription: String { description }
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// Sent only over TLS, or in the clear to a loopback relay; otherwise ``SMTPMailer`` refuses to send.
    public var credentials: Credentials?
    /// The envelope sender and the `From:` address.
    public var fromAddress: String
    /// The name mail clients show beside ``fromAddress``.
    public var fromName: String?
    /// How this server names itself in `EHLO`: its fully qualified domain name (RFC 5321 §4.1.1.1).
    public var heloName: String
    /// How long connecting, and then waiting for each reply, may take before the attempt is retried later.
    public var timeout: TimeAmount
    /// Trust roots and verification for `.startTLS` and `.tls`: the system's roots and full verification
    /// unless a private relay needs its own.
    public var tlsConfiguration: TLSConfiguration

    public init(
        host: String, port: Int, security: Security, credentials: Credentials? = nil, fromAddress: String,
        fromName: String? = nil, heloName: String, timeout: TimeAmount = .seconds(30),
        tlsConfiguration: TLSConfiguration = .makeClientConfiguration()
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.credentials = credentials
        self.fromAddress = fromAddress
        self.fromName = fromName
        self.heloName = heloName
        self.timeout = timeout
        self.tlsConfiguration = tlsConfiguration
    }

    /// Everything but the password, so a logged configuration leaks nothing.
    public var description: String {
        let login = credentials.map { " user=\($0.username)" } ?? ""
        return "SMTPConfiguration(\(host):\(port) security=\(security)\(login) from=\(fromAddress))"
    }

    /// Whether the relay is this machine, where a password in the clear never crosses a network.
    var isLoopback: Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
