import Foundation
import HTTPTypes
import Logging
import SpotterCore

/// Everything `spotter serve` can be told, by flag or by environment variable (see the README's table).
public struct AppConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Where the SQLite database lives when no PostgreSQL URL is given.
    public var dataDirectory = "./spotter-data"
    /// `postgres://…`: use PostgreSQL instead of SQLite.
    public var databaseURL: String?
    /// How many PostgreSQL connections run queries at once; `nil` for `PostgresStorage.defaultQueryConnections`.
    public var databaseConnections: Int?
    public var logLevel: Logger.Level = .info
    /// bcrypt cost; 12 takes about a quarter of a second per hash on this class of machine.
    public var bcryptCost: UInt8 = 12
    /// Sign in with Apple is enabled when a client id (the app's bundle id or Services ID) is set.
    public var appleClientID: String?
    public var appleJWKSURL = "https://appleid.apple.com/auth/keys"
    /// Read the client address from `X-Forwarded-For`; only behind a proxy that sets it.
    public var trustForwardedFor = false
    public var throttle = SigninThrottle.Limits()
    public var tokenLifetimes = AccountService.Lifetimes()
    /// Fitness tags for the global feed, and the new-account and duplicate rules.
    public var postRules = PostService.Configuration()
    /// How long a response is kept for replay under its `Idempotency-Key`.
    public var idempotencyRetention: TimeInterval = 24 * 3600
    /// Whether this process sweeps expired tokens and idempotency records hourly.
    public var runsMaintenance = true
    /// For tests only, never set by a flag: called inside each mutating request's unit of work after its
    /// handler answered, with the request's headers; an error it returns fails the request there, as a failed
    /// commit would, so a test can show that nothing of the request stays.
    public var faultAfterHandler: (@Sendable (HTTPFields) -> (any Error)?)?
    public var realtime = RealtimeConfiguration()
    /// Largest request body accepted, in bytes.
    public var maxBodySize = 1 << 20
    /// Timeouts, head limits and connections per address of each HTTP connection.
    public var connections = ConnectionLimits()
    public var delivery = DeliveryConfiguration()
    /// Mark the web app's cookies `Secure`: set it when browsers reach the server over TLS (a proxy in front
    /// terminating it counts). Plain-HTTP development on localhost needs it off, or browsers drop the cookie.
    public var secureCookies = false
    /// The site's address as people reach it (`https://spotter.example`), for links in mail. Unset, links
    /// point at `host:port`, which suits a server reached directly.
    public var publicURL: String?
    /// Where uploaded photos live: `<dataDirectory>/media/` unless an S3 bucket is configured.
    public var mediaStorage = MediaStorageConfiguration()
    /// Photo processing and its limits.
    public var media = MediaConfiguration()
    /// The Nostr relay at `/relay` and sign-in with Nostr.
    public var nostr = NostrConfiguration()

    public init() {}

    /// Where mailed links point.
    public var siteURL: String { publicURL ?? "http://\(host):\(port)" }

    /// The SQLite file inside the data directory.
    public var sqlitePath: String { URL(fileURLWithPath: dataDirectory).appendingPathComponent("spotter.sqlite").path }
}

/// Where notifications go out: push and email providers, and the job runner's pace.
public struct DeliveryConfiguration: Sendable {
    /// Whether this process drains the delivery queue (every node may; tools need not).
    public var runsQueue = true
    /// How often an idle runner looks for due jobs.
    public var pollInterval: Duration = .milliseconds(500)
    /// How often the streak and weekly-summary sweep runs; each sends what fell due since the last.
    public var reminderInterval: Duration = .seconds(300)
    /// Replaces the transports built from the settings: a test's own provider, or none.
    public var transport: (any DeliveryTransport)?
    /// APNs provider settings (team, key, bundle id); pushes to iPhones need them.
    public var apns: APNsConfiguration?
    /// The VAPID key pair browsers subscribe with; Web Push needs it.
    public var webPush: VAPIDKeys?
    /// The relay digests and security alerts are emailed through.
    public var smtp: SMTPConfiguration?
    /// Replaces the mailer built from `smtp` for account links (password resets, email changes): a test's own.
    public var accountMailer: (any AccountMailer)?

    /// Whether pushes can reach anyone: APNs or Web Push is set up. Settings offer only what can be delivered.
    public var offersPush: Bool { apns != nil || webPush != nil }
    /// Whether email can reach anyone: an SMTP relay is set up.
    public var offersEmail: Bool { smtp != nil }

    /// What sends account links: the test's mailer, else the SMTP relay, else nothing.
    var accountMail: (any AccountMailer)? {
        accountMailer ?? smtp.map { SMTPAccountMailer(mailer: SMTPMailer(configuration: $0)) }
    }

    public init() {}
}
