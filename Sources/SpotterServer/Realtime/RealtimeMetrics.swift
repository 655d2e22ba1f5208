import Metrics

/// What an operator watches on the realtime socket: how many are open, and why the server closed any.
enum RealtimeMetrics {
    enum Disconnect: String {
        case heartbeatTimeout = "heartbeat_timeout"
        case rateLimited = "rate_limited"
        case malformedFrame = "malformed_frame"
        case frameTooLarge = "frame_too_large"
        case slowConsumer = "slow_consumer"
        case loginRevoked = "login_revoked"
    }

    static let connections = Meter(label: "spotter_realtime_connections")

    static func disconnected(_ reason: Disconnect) {
        Counter(label: "spotter_realtime_disconnects_total", dimensions: [("reason", reason.rawValue)]).increment()
    }
}
