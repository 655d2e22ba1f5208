import Foundation

/// Limits of the realtime socket; every violation closes the socket with a reason, never the server.
public struct RealtimeConfiguration: Sendable {
    /// A socket that sends nothing (not even a heartbeat) for this long is closed, by a sweep every quarter of
    /// it (at most every 5 s).
    public var idleTimeout: Duration = .seconds(60)
    /// Frames sent to one socket that NIO has not yet handed to the kernel; past it the client is too slow and
    /// is disconnected, so it never delays anyone else.
    public var outboundBuffer = 1024
    /// How long a socket the server closes (slow consumer, heartbeat timeout, a broken limit, shutdown) gets to
    /// take its close frame and answer it. A client that stopped reading never will, so after this the connection is cut without the
    /// close handshake rather than held open.
    public var slowConsumerGrace: Duration = .seconds(2)
    /// Caps the kernel's send buffer of each socket (SO_SNDBUF, in bytes; Linux doubles it). `nil` keeps
    /// Linux's autotuning, which lets one socket whose client stopped reading hold up to the third figure of
    /// `net.ipv4.tcp_wmem` (4 MB by default) before the queue above even starts to fill.
    public var sendBufferSize: Int?
    /// Presence joins and leaves gather this long and go out as one `presence_diff`.
    public var presenceInterval: Duration = .milliseconds(500)
    /// A person's badge (`unread_count`) goes out at most once in this long while notifications arrive; the
    /// last of a burst goes out when it ends, so the badge always settles on the true count. Their own
    /// reading and marking seen update it at once.
    public var badgeInterval: Duration = .seconds(1)
    public var maxTopicsPerSocket = 50
    public var maxMessagesPerSecond = 50
    public var maxFrameSize = 64 * 1024
    /// How many missed posts a `since` join replays before it answers `{"reset": true}`.
    public var replayLimit = 100

    public init() {}
}
