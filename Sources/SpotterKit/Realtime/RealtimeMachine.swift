import Foundation

/// The schedules of the realtime connection (the community feed seed's client).
public struct RealtimeSchedule: Sendable, Equatable {
    /// Waits before reconnecting after the 1st, 2nd, … failure in a row; the last repeats.
    public var reconnect: [Duration]
    /// Waits before joining a channel again after the 1st, 2nd, … refusal in a row; the last repeats.
    public var rejoin: [Duration]
    /// How often a heartbeat is sent. One still unanswered when the next is due means the connection is dead.
    public var heartbeat: Duration

    public init(
        reconnect: [Duration] = [10, 50, 100, 150, 200, 250, 500, 1000, 2000, 5000].map { .milliseconds($0) },
        rejoin: [Duration] = [1, 2, 5, 10].map { .seconds($0) },
        heartbeat: Duration = .seconds(30)
    ) {
        precondition(!reconnect.isEmpty && !rejoin.isEmpty, "schedules need at least one wait")
        self.reconnect = reconnect
        self.rejoin = rejoin
        self.heartbeat = heartbeat
    }

    func reconnectDelay(failures: Int) -> Duration { reconnect[min(max(failures, 1), reconnect.count) - 1] }
    func rejoinDelay(refusals: Int) -> Duration { rejoin[min(max(refusals, 1), rejoin.count) - 1] }
}

/// The realtime connection's logic, with no I/O and no clock of its own: `RealtimeClient` feeds it what
/// happened (`Input`) and the time, and carries out what it answers (`Output`). Tests drive it with any times
/// they like.
///
/// ```swift
/// var machine = RealtimeMachine()
/// machine.handle(.join("community:feed"), now: .zero)      // [.openSocket]
/// machine.handle(.opened, now: .milliseconds(40))          // [.sendJoin(ref: "1", topic: "community:feed", since: nil)]
/// ```
public struct RealtimeMachine: Sendable {
    public enum Phase: Sendable, Equatable {
        /// Not connected and not trying: not started, in the background, or signed out.
        case stopped
        case connecting
        case open
        /// Waiting to reconnect until the given time.
        case waiting(until: Duration)
    }

    public enum Input: Sendable, Equatable {
        /// Be connected (started, or back in the foreground): connects at once if not connected.
        case start
        /// The app went to the background: close, keep the topics for later.
        case background
        /// Signed out: close and forget every topic.
        case signOut
        /// Join a topic now and after every reconnect, until `leave`.
        case join(String)
        case leave(String)
        case opened
        /// The socket closed, or failed to open.
        case closed
        /// A `phx_reply` arrived.
        case reply(ref: String, topic: String, ok: Bool)
        /// The server closed or failed a channel (`phx_close`, `phx_error`) without being asked.
        case channelLost(String)
        /// A post arrived on a topic: its cursor is where a rejoin resumes.
        case received(topic: String, cursor: String)
        /// Time passed; timers due by `now` fire.
        case tick
    }

    public enum Output: Sendable, Equatable {
        /// Ask for a fresh token and open the socket.
        case openSocket
        case closeSocket
        case sendHeartbeat(ref: String)
        /// Join, resuming after `since` when the topic had seen posts before.
        case sendJoin(ref: String, topic: String, since: String?)
        case sendLeave(ref: String, topic: String)
    }

    enum ChannelStatus: Sendable, Equatable {
        /// Waiting for the socket to open.
        case pending
        case joining(ref: String)
        case joined
        case waiting(until: Duration)
    }

    struct Channel: Sendable, Equatable {
        var status: ChannelStatus = .pending
        var refusals = 0
        var cursor: String?
    }

    public let schedule: RealtimeSchedule
    public private(set) var phase: Phase = .stopped
    /// Connection failures since the socket was last open.
    public private(set) var failures = 0
    private var wanted = false
    private var channels: [String: Channel] = [:]
    private var nextRef = 0
    private var unansweredHeartbeat: String?
    private var nextHeartbeat: Duration?

    public init(schedule: RealtimeSchedule = RealtimeSchedule()) { self.schedule = schedule }

    /// The topics joined or being joined, and the cursor each would resume from.
    public var topics: [String: String?] { channels.mapValues(\.cursor) }

    /// Whether the topic's join was accepted on the current connection.
    public func isJoined(_ topic: String) -> Bool { channels[topic]?.status == .joined }

    /// The next time something is due (a reconnect, a heartbeat, a rejoin): when to send `.tick`.
    public var nextDeadline: Duration? {
        var deadlines: [Duration] = []
        if case .waiting(let until) = phase { deadlines.append(until) }
        if phase == .open, let nextHeartbeat { deadlines.append(nextHeartbeat) }
        if phase == .open {
            for channel in channels.values {
                if case .waiting(let until) = channel.status { deadlines.append(until) }
            }
        }
        return deadlines.min()
    }

    @discardableResult
    public mutating func handle(_ input: Input, now: Duration) -> [Output] {
        switch input {
        case .start:
            wanted = true
            return connectIfIdle()
        case .background:
            wanted = false
            return stop()
        case .signOut:
            wanted = false
            channels = [:]
            return stop()
        case .join(let topic):
            if channels[topic] == nil { channels[topic] = Channel() }
            wanted = true
            return phase == .open ? joinNow(topic) : connectIfIdle()
        case .leave(let topic):
            guard let channel = channels.removeValue(forKey: topic) else { return [] }
            guard phase == .open, channel.status != .pending else { return [] }
            return [.sendLeave(ref: makeRef(), topic: topic)]
        case .opened:
            phase = .open
            failures = 0
            unansweredHeartbeat = nil
            nextHeartbeat = now + schedule.heartbeat
            return channels.keys.sorted().flatMap { joinNow($0) }
        case .closed:
            // Already handled when the machine closed the socket itself (heartbeat, background).
            guard phase == .open || phase == .connecting else { return [] }
            return connectionLost(now: now)
        case .reply(let ref, let topic, let ok):
            if ref == unansweredHeartbeat {
                unansweredHeartbeat = nil
                return []
            }
            guard var channel = channels[topic], channel.status == .joining(ref: ref) else { return [] }
            if ok {
                channel.status = .joined
                channel.refusals = 0
            } else {
                channel.refusals += 1
                channel.status = .waiting(until: now + schedule.rejoinDelay(refusals: channel.refusals))
            }
            channels[topic] = channel
            return []
        case .channelLost(let topic):
            guard var channel = channels[topic], phase == .open else { return [] }
            channel.refusals += 1
            channel.status = .waiting(until: now + schedule.rejoinDelay(refusals: channel.refusals))
            channels[topic] = channel
            return []
        case .received(let topic, let cursor):
            channels[topic]?.cursor = cursor
            return []
        case .tick:
            return tick(now: now)
        }
    }

    private mutating func tick(now: Duration) -> [Output] {
        switch phase {
        case .waiting(let until) where now >= until:
            phase = .connecting
            return [.openSocket]
        case .open:
            if let due = nextHeartbeat, now >= due {
                // The last heartbeat is still unanswered a whole interval later: the connection is dead,
                // whatever the socket says.
                if unansweredHeartbeat != nil { return [.closeSocket] + connectionLost(now: now) }
                let ref = makeRef()
                unansweredHeartbeat = ref
                nextHeartbeat = due + schedule.heartbeat
                return [.sendHeartbeat(ref: ref)] + rejoinDue(now: now)
            }
            return rejoinDue(now: now)
        default:
            return []
        }
    }

    private mutating func rejoinDue(now: Duration) -> [Output] {
        channels.keys.sorted().flatMap { topic -> [Output] in
            guard case .waiting(let until) = channels[topic]?.status, now >= until else { return [] }
            return joinNow(topic)
        }
    }

    private mutating func joinNow(_ topic: String) -> [Output] {
        let ref = makeRef()
        channels[topic]?.status = .joining(ref: ref)
        return [.sendJoin(ref: ref, topic: topic, since: channels[topic]?.cursor)]
    }

    private mutating func connectIfIdle() -> [Output] {
        guard wanted, phase == .stopped else { return [] }
        phase = .connecting
        return [.openSocket]
    }

    private mutating func connectionLost(now: Duration) -> [Output] {
        for topic in channels.keys { channels[topic]?.status = .pending }
        unansweredHeartbeat = nil
        nextHeartbeat = nil
        guard wanted else {
            phase = .stopped
            return []
        }
        failures += 1
        phase = .waiting(until: now + schedule.reconnectDelay(failures: failures))
        return []
    }

    private mutating func stop() -> [Output] {
        let wasConnected = phase == .open || phase == .connecting
        phase = .stopped
        failures = 0
        unansweredHeartbeat = nil
        nextHeartbeat = nil
        for topic in channels.keys { channels[topic]?.status = .pending }
        return wasConnected ? [.closeSocket] : []
    }

    private mutating func makeRef() -> String {
        nextRef += 1
        return String(nextRef)
    }
}
