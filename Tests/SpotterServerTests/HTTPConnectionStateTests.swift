import NIOCore
import NIOHTTP1
import Testing

@testable import SpotterServer

/// The connection guard's rules with made-up times and no sockets: what each clock allows, what a stalled or
/// broken request is answered, and when a connection ends. `ConnectionHardeningTests` holds the same rules
/// against a real server over TCP.
@Suite("HTTP connection state")
struct HTTPConnectionStateTests {
    static let limits = {
        var limits = ConnectionLimits()
        (limits.idleTimeout, limits.headerTimeout, limits.bodyTimeout) = (.seconds(60), .seconds(10), .seconds(30))
        return limits
    }()
    /// A moment to count from: any will do, the state only compares.
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    static func at(_ seconds: Int64) -> NIODeadline { start + .seconds(seconds) }

    static func head(_ headers: [(String, String)] = [], version: HTTPVersion = .http1_1) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: .POST, uri: "/api/v1/posts", headers: HTTPHeaders(headers))
    }

    /// A connection that has come up at `start`, its idle timer asked for.
    static func connection() -> HTTPConnectionState {
        var state = HTTPConnectionState(limits: limits)
        #expect(state.event(.active, at: start) == .schedule(at(60)))
        return state
    }

    @Test("a connection that sends nothing is closed without a word when the idle time runs out")
    func idle() {
        // Given a connection with no request
        var state = Self.connection()
        // When the timer fires early (a clock's slack), then it waits; when the time is out, it closes
        #expect(state.event(.timerFired, at: Self.at(59)) == .schedule(Self.at(60)))
        #expect(state.event(.timerFired, at: Self.at(60)) == .close)
    }

    @Test("a head must be whole within the header time of its first byte, however its bytes trickle: else 408")
    func slowHead() {
        var state = Self.connection()
        // Given a head's first byte at 5 s, then a byte now and then
        #expect(state.event(.bytesArrived, at: Self.at(5)) == .proceed)
        #expect(state.event(.readComplete, at: Self.at(5)) == .schedule(Self.at(15)))
        #expect(state.event(.bytesArrived, at: Self.at(9)) == .proceed)
        // Then the later bytes buy no more time and ask for no new timer
        #expect(state.event(.readComplete, at: Self.at(9)) == .proceed)
        // And at 15 s the answer is 408, after which nothing more is read
        #expect(
            state.event(.timerFired, at: Self.at(15)) == .refuse(.requestTimeout, "The request did not arrive in time.")
        )
        #expect(state.lingering)
        #expect(state.event(.requestHead(Self.head()), at: Self.at(16)) == .drop)
    }

    @Test("a body that stalls is answered 408; one whose answer has begun is closed instead")
    func stalledBody() {
        // Given a request whose head came, and then nothing
        var state = Self.connection()
        _ = state.event(.bytesArrived, at: Self.at(1))
        #expect(state.event(.requestHead(Self.head()), at: Self.at(1)) == .proceed)
        #expect(state.event(.readComplete, at: Self.at(1)) == .schedule(Self.at(31)))
        #expect(state.event(.requestBody, at: Self.at(2)) == .proceed)
        // Then each part of the body restarts its clock: the pending timer (31 s) finds the new deadline later
        #expect(state.event(.readComplete, at: Self.at(2)) == .proceed)
        #expect(state.event(.timerFired, at: Self.at(31)) == .schedule(Self.at(32)))
        #expect(
            state.event(.timerFired, at: Self.at(32)) == .refuse(.requestTimeout, "The request did not arrive in time.")
        )

        // Given another whose answer the app began before the body stalled
        var answering = Self.connection()
        _ = answering.event(.requestHead(Self.head()), at: Self.at(1))
        _ = answering.event(.readComplete, at: Self.at(1))
        #expect(answering.event(.responseHead(.payloadTooLarge), at: Self.at(2)) == .markClosing)
        // Then at its deadline it is closed: a second answer cannot follow the first
        #expect(answering.event(.timerFired, at: Self.at(31)) == .close)
    }

    @Test("no clock runs while the app works; a kept-alive connection's next requests ask for no new timer")
    func keptAlive() {
        var state = Self.connection()
        // Given a whole request in one read
        for event: HTTPConnectionState.Event in [.bytesArrived, .requestHead(Self.head()), .requestEnd] {
            #expect(state.event(event, at: Self.at(1)) == .proceed)
        }
        #expect(state.event(.readComplete, at: Self.at(1)) == .proceed)
        // Then the idle timer finds the app at work and does nothing, however late
        #expect(state.event(.timerFired, at: Self.at(600)) == .proceed)
        // When the answer ends, then the idle clock starts again
        #expect(state.event(.responseHead(.created), at: Self.at(601)) == .proceed)
        #expect(state.event(.responseEnd, at: Self.at(601)) == .schedule(Self.at(661)))
        // And the next request, answered at 630 s, moves the deadline without a new timer
        for event: HTTPConnectionState.Event in [.bytesArrived, .requestHead(Self.head()), .requestEnd, .readComplete] {
            #expect(state.event(event, at: Self.at(620)) == .proceed)
        }
        _ = state.event(.responseHead(.ok), at: Self.at(630))
        #expect(state.event(.responseEnd, at: Self.at(630)) == .proceed)
        #expect(state.event(.timerFired, at: Self.at(661)) == .schedule(Self.at(690)))
        #expect(state.event(.timerFired, at: Self.at(690)) == .close)
    }

    @Test("Connection: close, or an answer before the body was read, ends the connection after the answer")
    func closesAfterResponse() {
        for head in [Self.head([("connection", "close")]), Self.head([("upgrade", "websocket")]), Self.head()] {
            var state = Self.connection()
            _ = state.event(.requestHead(head), at: Self.at(1))
            let bodyRead = head.headers.contains(name: "connection") || head.headers.contains(name: "upgrade")
            if bodyRead { _ = state.event(.requestEnd, at: Self.at(1)) }
            // Then the answer says close (the last one: its body unread) and the connection lingers after it
            #expect(state.event(.responseHead(.badRequest), at: Self.at(2)) == .markClosing)
            #expect(state.event(.responseEnd, at: Self.at(2)) == .finishAndLinger)
            #expect(state.event(.requestBody, at: Self.at(3)) == .drop)
            #expect(state.event(.readComplete, at: Self.at(3)) == .proceed)
        }
    }

    @Test("an upgrade the app accepts keeps the connection, with no clock: it lives on as a WebSocket")
    func upgrade() {
        var state = Self.connection()
        _ = state.event(.requestHead(Self.head([("upgrade", "websocket")])), at: Self.at(1))
        _ = state.event(.requestEnd, at: Self.at(1))
        #expect(state.event(.responseHead(.switchingProtocols), at: Self.at(1)) == .proceed)
        #expect(state.event(.closed, at: Self.at(1)) == .cancelTimer)
        #expect(state.event(.timerFired, at: Self.at(60)) == .proceed)
    }

    @Test("bytes that are not HTTP get 400, a head over the limits 431, another HTTP version 505, and nothing after")
    func refusals() {
        var garbage = Self.connection()
        #expect(
            garbage.event(.parseError(.invalidMethod), at: Self.at(1))
                == .refuse(.badRequest, "The request is not valid HTTP/1.1."))
        #expect(garbage.event(.parseError(.invalidMethod), at: Self.at(1)) == .drop)
        #expect(garbage.event(.otherError, at: Self.at(1)) == .drop)

        var large = Self.connection()
        #expect(
            large.event(.parseError(.headerOverflow), at: Self.at(1))
                == .refuse(.requestHeaderFieldsTooLarge, "The request's headers are too large."))

        var http2 = Self.connection()
        #expect(
            http2.event(.requestHead(Self.head(version: .http2)), at: Self.at(1))
                == .refuse(.httpVersionNotSupported, "Spotter speaks HTTP/1.0 and HTTP/1.1."))
        #expect(http2.lingering)
    }

    @Test("a body that breaks after its head reached the app is the app's to answer, and the connection ends after")
    func brokenBody() {
        var state = Self.connection()
        _ = state.event(.requestHead(Self.head()), at: Self.at(1))
        // When the chunked body cannot be parsed, then the app hears of it
        #expect(state.event(.parseError(.invalidChunkSize), at: Self.at(2)) == .proceed)
        // And its answer (400) closes the connection
        _ = state.event(.requestEnd, at: Self.at(2))
        #expect(state.event(.responseHead(.badRequest), at: Self.at(2)) == .markClosing)
        #expect(state.event(.responseEnd, at: Self.at(2)) == .finishAndLinger)
    }
}
