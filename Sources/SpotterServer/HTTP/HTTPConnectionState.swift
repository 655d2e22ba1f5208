import NIOCore
import NIOHTTP1

/// What `HTTPConnectionGuard` knows of one HTTP/1.1 connection, and what it must do next: a pure state machine.
/// Each event from the channel, with the time it happened, returns the one thing the guard does about it. It
/// holds no socket and no timer, so it is tested with made-up times (`HTTPConnectionStateTests`), as
/// Hummingbird's `HTTPConnectionStateHandler` is.
///
/// - Waiting for a request: closed silently after `idleTimeout`; once a head's first byte has come, the head
///   must be complete within `headerTimeout` of it, or the answer is 408.
/// - Reading a body: each part must come within `bodyTimeout` of the last, or the answer is 408.
/// - While the app works on a request, no clock runs: the app's own deadlines apply.
/// - A request the decoder cannot parse is answered here, 400 (431 for a head over the limits), and the
///   connection closes, as nginx does. A body that breaks after its head reached the app is the app's to
///   answer (400), and the connection closes after that answer.
///
/// ```swift
/// var state = HTTPConnectionState(limits: limits)
/// if case .schedule(let deadline) = state.event(.active, at: .now()) { /* fire .timerFired at deadline */ }
/// ```
struct HTTPConnectionState {
    enum Event {
        /// The connection became active, or the guard joined an active one.
        case active
        /// The connection closed, or the guard left its pipeline (an upgrade to a WebSocket).
        case closed
        /// Bytes came in, before the decoder read them: between requests, the next head's first.
        case bytesArrived
        case requestHead(HTTPRequestHead)
        case requestBody
        case requestEnd
        /// The decoder has decoded all of one read's bytes. The clocks are set then: a request that came whole
        /// (most do) is in the app's hands by then, and sets none.
        case readComplete
        case responseHead(HTTPResponseStatus)
        case responseBody
        case responseEnd
        /// The decoder could not parse what came.
        case parseError(HTTPParserError)
        /// Any other error reached the guard.
        case otherError
        /// The timer the last `.schedule` asked for fired.
        case timerFired
    }

    enum Action: Equatable {
        /// Pass the event on as it is (for a timer or a closed connection: nothing to do).
        case proceed
        /// Pass the event on, and have `.timerFired` come at this deadline, in place of any timer pending.
        case schedule(NIODeadline)
        /// Keep the event from going further: the connection is ending and nothing more is read.
        case drop
        /// A response head: pass it on saying `Connection: close`.
        case markClosing
        /// A response's end: pass it on and flush it, then close the output and linger.
        case finishAndLinger
        /// Answer with this status and detail here, then close the output and linger; the event goes no further.
        case refuse(HTTPResponseStatus, String)
        /// Close the connection now; the event goes no further.
        case close
        /// Cancel the pending timer.
        case cancelTimer
    }

    private enum Reading {
        /// Between requests; `begun` once a byte of the next head has come.
        case awaitingHead(begun: Bool)
        case body
        case done
    }

    private let limits: ConnectionLimits
    private var reading = Reading.awaitingHead(begun: false)
    /// Whether the current request has been answered to its end (true between requests).
    private var answered = true
    private var responseStarted = false
    /// Set when this connection ends after the response in progress: the client said `Connection: close`, an
    /// upgrade was refused, or the request's body could not be parsed.
    private var closesAfterResponse = false
    /// After a last answer: the output is closed, and what the client still sends is read and dropped.
    private(set) var lingering = false
    /// When the connection's current state runs out of time; nil while the app works on a request.
    private var deadline: NIODeadline?
    /// When the head being read began to arrive.
    private var headBegan = NIODeadline.distantPast
    /// When the pending timer fires; nil when none is pending.
    private var timerAt: NIODeadline?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    mutating func event(_ event: Event, at now: NIODeadline) -> Action {
        switch event {
        case .active:
            return arm(now)
        case .closed:
            disarm()
            return .cancelTimer
        case .bytesArrived:
            if case .awaitingHead(begun: false) = reading {
                reading = .awaitingHead(begun: true)
                headBegan = now
            }
            return .proceed
        case .requestHead(let head):
            guard !lingering else { return .drop }
            guard head.version.major == 1 else {
                return refuse(.httpVersionNotSupported, "Spotter speaks HTTP/1.0 and HTTP/1.1.")
            }
            reading = .body
            answered = false
            responseStarted = false
            closesAfterResponse = !head.isKeepAlive || head.headers.contains(name: "upgrade")
            return .proceed
        case .requestBody:
            return lingering ? .drop : .proceed
        case .requestEnd:
            guard !lingering else { return .drop }
            reading = .done
            return .proceed
        case .readComplete:
            return lingering ? .proceed : arm(now)
        case .responseHead(let status):
            responseStarted = true
            if status == .switchingProtocols {
                closesAfterResponse = false  // the connection lives on as a WebSocket
            } else if case .body = reading {
                closesAfterResponse = true  // answered without its body (413, say): the rest is not read
            }
            return closesAfterResponse ? .markClosing : .proceed
        case .responseBody:
            return .proceed
        case .responseEnd:
            answered = true
            guard !closesAfterResponse else {
                startLingering()
                return .finishAndLinger
            }
            return arm(now)
        case .parseError(let error):
            guard !lingering else { return .drop }  // the decoder's complaints about bytes after its error
            if case .awaitingHead = reading, answered {
                // Nobody has seen this request: it is answered here.
                return error == .headerOverflow
                    ? refuse(.requestHeaderFieldsTooLarge, "The request's headers are too large.")
                    : refuse(.badRequest, "The request is not valid HTTP/1.1.")
            }
            if answered { return .close }
            // The app holds this request and answers it when its body read fails.
            closesAfterResponse = true
            return .proceed
        case .otherError:
            return lingering ? .drop : .proceed
        case .timerFired:
            timerAt = nil
            guard let deadline else { return .proceed }
            guard now >= deadline else {
                timerAt = deadline  // moved on since: wait for the new deadline
                return .schedule(deadline)
            }
            self.deadline = nil
            return expired()
        }
    }

    /// Sets the deadline the connection's state calls for. A timer is asked for only when the deadline comes
    /// before the pending one; a timer that finds the deadline moved on waits for it. So a kept-alive
    /// connection's requests move a number and schedule nothing (scheduling a task per request cost about
    /// 2,500 instructions of a `/healthz`'s 160,000).
    private mutating func arm(_ now: NIODeadline) -> Action {
        if case .done = reading, answered {
            reading = .awaitingHead(begun: false)
        }
        let deadline: NIODeadline
        switch reading {
        case .awaitingHead(begun: false): deadline = now + limits.idleTimeout
        // From the head's first byte, however many reads it takes: a byte now and then buys no more time.
        case .awaitingHead(begun: true): deadline = headBegan + limits.headerTimeout
        case .body: deadline = now + limits.bodyTimeout  // from the last progress
        case .done:
            self.deadline = nil  // the app is working on it
            return .proceed
        }
        self.deadline = deadline
        if let timerAt, timerAt <= deadline { return .proceed }
        timerAt = deadline
        return .schedule(deadline)
    }

    private mutating func disarm() {
        deadline = nil
        timerAt = nil
    }

    private mutating func expired() -> Action {
        switch reading {
        case .awaitingHead(begun: false):
            return .close  // an idle keep-alive connection: nothing to say
        case .awaitingHead(begun: true), .body:
            return responseStarted ? .close : refuse(.requestTimeout, "The request did not arrive in time.")
        case .done:
            return .proceed
        }
    }

    /// The connection's last answer is this one: nothing more is read.
    private mutating func refuse(_ status: HTTPResponseStatus, _ detail: String) -> Action {
        reading = .done
        answered = false
        closesAfterResponse = true
        startLingering()
        return .refuse(status, detail)
    }

    private mutating func startLingering() {
        disarm()
        lingering = true
    }
}
