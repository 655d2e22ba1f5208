import NIOCore

/// What one HTTP connection may take of the server: how long it may sit idle or dawdle over a request, how big
/// a request head may be, and how many connections one client address may hold (see the README's table).
///
/// The defaults follow what nginx and Apache ship with, tightened where Spotter's requests are small: a head
/// is a few hundred bytes, so 10 seconds from its first byte is generous on any phone network, and a client
/// that needs longer is more likely a slowloris than a person.
public struct ConnectionLimits: Sendable {
    /// A keep-alive connection with no request in progress is closed after this long (nginx: 75 s).
    public var idleTimeout: TimeAmount = .seconds(60)
    /// A request head must be complete this long after its first byte arrives, or the answer is 408.
    public var headerTimeout: TimeAmount = .seconds(10)
    /// A request body that makes no progress for this long is given up with 408 (nginx: 60 s between reads).
    public var bodyTimeout: TimeAmount = .seconds(30)
    /// Open connections from one client address; more are answered 503 and closed. 0 lets any number in, as
    /// behind a proxy (`SPOTTER_TRUST_PROXY`), where every connection comes from the proxy's one address.
    public var maxConnectionsPerAddress = 256
    /// Open connections in all; nil for what the descriptor limit leaves after a reserve for the database,
    /// files and outgoing connections (`DescriptorLimit.connectionBudget`).
    public var maxConnections: Int?
    /// One header line's size, all header lines' size, and how many there may be: more is answered 431.
    /// (Apache allows 100 fields of 8 KiB; nginx 32 KiB in all.)
    public var maxHeaderFieldSize = 16 * 1024
    public var maxHeaderListSize = 32 * 1024
    public var maxHeaderFieldCount = 100

    public init() {}
}
