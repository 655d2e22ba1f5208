import SpotterKit
import Testing

/// The realtime connection's schedules, driven by hand-picked times: no sockets, no waiting.
@Suite("Realtime state machine")
struct RealtimeMachineTests {
    static let feed = "community:feed"

    @Test("reconnects after 10, 50, 100, 150, 200, 250, 500, 1000, 2000 ms, then every 5 s; an open resets it")
    func reconnectSchedule() throws {
        var machine = RealtimeMachine()
        #expect(machine.handle(.join(Self.feed), now: .zero) == [.openSocket])
        var now = Duration.zero
        var waits: [Duration] = []
        for _ in 0..<11 {
            #expect(machine.handle(.closed, now: now).isEmpty)
            let due = try #require(machine.nextDeadline)
            waits.append(due - now)
            #expect(machine.handle(.tick, now: due - .milliseconds(1)).isEmpty, "nothing before it is due")
            #expect(machine.handle(.tick, now: due) == [.openSocket])
            now = due
        }
        #expect(waits == [10, 50, 100, 150, 200, 250, 500, 1000, 2000, 5000, 5000].map { .milliseconds($0) })
        #expect(machine.handle(.opened, now: now) == [.sendJoin(ref: "1", topic: Self.feed, since: nil)])
        #expect(machine.failures == 0)
        _ = machine.handle(.closed, now: now)
        #expect(machine.nextDeadline == now + .milliseconds(10))
    }

    @Test("a refused join is retried after 1, 2, 5 s, then every 10 s; an accepted one resets it")
    func rejoinSchedule() throws {
        var machine = RealtimeMachine()
        _ = machine.handle(.join(Self.feed), now: .zero)
        var output = machine.handle(.opened, now: .zero)
        var now = Duration.zero
        var waits: [Duration] = []
        for _ in 0..<5 {
            guard case .sendJoin(let ref, _, _) = output.first else {
                Issue.record("expected a join, got \(output)")
                return
            }
            _ = machine.handle(.reply(ref: ref, topic: Self.feed, ok: false), now: now)
            let due = try #require(machine.nextDeadline)
            waits.append(due - now)
            now = due
            output = machine.handle(.tick, now: now)
        }
        #expect(waits == [1, 2, 5, 10, 10].map { .seconds($0) })
        let ref = try #require(output.first.flatMap { if case .sendJoin(let ref, _, _) = $0 { ref } else { nil } })
        _ = machine.handle(.reply(ref: ref, topic: Self.feed, ok: true), now: now)
        #expect(machine.isJoined(Self.feed))
        // The server dropping the channel later starts the schedule over.
        _ = machine.handle(.channelLost(Self.feed), now: now)
        #expect(machine.nextDeadline == now + .seconds(1))
    }

    @Test("a heartbeat every 30 s; one unanswered for a whole interval closes and reconnects")
    func heartbeat() {
        var machine = RealtimeMachine()
        _ = machine.handle(.start, now: .zero)
        _ = machine.handle(.opened, now: .zero)
        #expect(machine.nextDeadline == .seconds(30))
        #expect(machine.handle(.tick, now: .seconds(30)) == [.sendHeartbeat(ref: "1")])
        _ = machine.handle(.reply(ref: "1", topic: "phoenix", ok: true), now: .seconds(30))
        #expect(machine.handle(.tick, now: .seconds(60)) == [.sendHeartbeat(ref: "2")])
        #expect(machine.handle(.tick, now: .seconds(90)) == [.closeSocket])
        #expect(machine.phase == .waiting(until: .seconds(90) + .milliseconds(10)))
        #expect(machine.handle(.closed, now: .seconds(90)).isEmpty, "the close it asked for changes nothing")
        #expect(machine.failures == 1)
    }

    @Test("a rejoin resumes after the last post seen on each topic")
    func resume() {
        var machine = RealtimeMachine()
        _ = machine.handle(.join(Self.feed), now: .zero)
        _ = machine.handle(.join("feed:ana"), now: .zero)
        let joins = machine.handle(.opened, now: .zero)
        #expect(
            joins == [
                .sendJoin(ref: "1", topic: Self.feed, since: nil), .sendJoin(ref: "2", topic: "feed:ana", since: nil),
            ])
        _ = machine.handle(.reply(ref: "1", topic: Self.feed, ok: true), now: .zero)
        _ = machine.handle(.received(topic: Self.feed, cursor: "c1"), now: .seconds(1))
        _ = machine.handle(.received(topic: Self.feed, cursor: "c2"), now: .seconds(2))
        _ = machine.handle(.closed, now: .seconds(3))
        #expect(machine.handle(.tick, now: .seconds(4)) == [.openSocket])
        #expect(
            machine.handle(.opened, now: .seconds(4)) == [
                .sendJoin(ref: "3", topic: Self.feed, since: "c2"), .sendJoin(ref: "4", topic: "feed:ana", since: nil),
            ])
        #expect(machine.handle(.leave("feed:ana"), now: .seconds(5)) == [.sendLeave(ref: "5", topic: "feed:ana")])
        #expect(Array(machine.topics.keys) == [Self.feed])
    }

    @Test("background closes and keeps the topics; foreground reconnects at once; sign-out forgets them")
    func lifecycle() {
        var machine = RealtimeMachine()
        _ = machine.handle(.join(Self.feed), now: .zero)
        _ = machine.handle(.opened, now: .zero)
        #expect(machine.handle(.background, now: .seconds(1)) == [.closeSocket])
        #expect(machine.handle(.closed, now: .seconds(1)).isEmpty)
        #expect(machine.phase == .stopped && machine.nextDeadline == nil, "no reconnecting in the background")
        #expect(machine.handle(.start, now: .seconds(100)) == [.openSocket], "no backoff on foreground")
        #expect(machine.handle(.opened, now: .seconds(100)) == [.sendJoin(ref: "2", topic: Self.feed, since: nil)])
        #expect(machine.handle(.signOut, now: .seconds(101)) == [.closeSocket])
        #expect(machine.topics.isEmpty)
        #expect(machine.handle(.start, now: .seconds(102)) == [.openSocket])
        #expect(machine.handle(.opened, now: .seconds(102)).isEmpty)
    }
}
