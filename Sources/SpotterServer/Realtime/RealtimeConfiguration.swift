import Foundation

/// Limits of the realtime socket; every violation closes the socket with a reason, never the server.
public struct RealtimeConfiguration: Sendable {
    /// A socket that sends nothing (not even a heartbeat) for this long is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// Frames waiting to be written to one socket; past it the client is too slow and is disconnected, so it
    /// never delays anyone else.
    public var outboundBuffer = 1024
    public var maxTopicsPerSocket = 50
    public var maxMessagesPerSecond = 50
    public var maxFrameSize = 64 * 1024
    /// How many missed posts a `since` join replays before it answers `{"reset": true}`.
    public var replayLimit = 100

    public init() {}
}
