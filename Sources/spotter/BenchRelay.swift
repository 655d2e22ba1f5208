import ArgumentParser
import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import SpotterNostr

extension Bench {
    /// `spotter bench relay …`: one load client for any NIP-01 relay (Spotter's `/relay`, rust-nostr's
    /// LocalRelay, Python's nostr-relay), so `scripts/bench-relay` measures them all the same way. Events are
    /// signed with SpotterNostr before any timing starts; each measurement prints one line of figures.
    struct Relay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure a Nostr relay: ingest, live fan-out, REQ throughput (see scripts/bench-relay).",
            subcommands: [RelayLoad.self, RelayIngest.self, RelayFanout.self, RelayQuery.self])
    }

    struct RelayTarget: ParsableArguments {
        @Option(help: "The relay's WebSocket URL (ws://host:port/path).") var url: String
    }

    /// `spotter bench relay load`: the stored events REQ throughput is measured on, sent through the relay
    /// protocol (kind 1 notes by --authors keys, one second apart, newest first).
    struct RelayLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load", abstract: "Store events for `spotter bench relay req`, through EVENT and OK.")

        @OptionGroup var target: RelayTarget
        @Option(help: "Events to store.") var events = 1_000_000
        @Option(help: "Authors (keys) the events are spread over.") var authors = 10_000
        @Option(help: "Connections.") var connections = 4
        @Option(help: "Events in flight on each connection.") var window = 64
        @Option(help: "The first event's index (to load in parts).") var from = 0
        @Option(help: "Unix time of event 0 (default: a minute ago); give the same to every part.") var newest: Int64?

        func run() async throws {
            let keys = try RelayBenchKeys.make(authors)
            let newest = newest ?? Int64(Date().timeIntervalSince1970) - 60
            let from = from
            let figures = try await RelayIngestRun(
                url: target.url, connections: connections, window: window, count: events
            ) { offset in
                // Event `index` is by author `index % authors`, created `index` seconds before event 0, so the
                // newest of any author set are the lowest indexes. Signed here: loading is not timed.
                let index = from + offset
                let event = try NostrEvent.sign(
                    kind: NostrKind(rawValue: 1), tags: [["t", "bench"]], content: "stored event \(index)",
                    createdAt: newest - Int64(index), with: keys[index % keys.count])
                return NostrClientMessage.event(event).json
            }.run()
            print(String(format: "load %d %.1f %d", figures.accepted, figures.perSecond, figures.refused))
            guard figures.refused == 0 else { throw ExitCode(1) }
        }
    }

    /// `spotter bench relay ingest`: pre-signed events over N connections with a window of W in flight each;
    /// events per second until the last `OK`.
    struct RelayIngest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ingest", abstract: "Measure ingest: signed events per second, each answered by OK.")

        @OptionGroup var target: RelayTarget
        @Option(help: "Events to publish.") var events = 20_000
        @Option(help: "Connections.") var connections = 8
        @Option(help: "Events in flight on each connection.") var window = 32

        func run() async throws {
            let keys = try RelayBenchKeys.make(100, offset: 1_000_000)
            let now = Int64(Date().timeIntervalSince1970)
            let run = UUID().uuidString.prefix(8)
            var frames: [String] = []
            frames.reserveCapacity(events)
            for index in 0..<events {
                let event = try NostrEvent.sign(
                    kind: NostrKind(rawValue: 1), content: "ingest \(run) \(index)", createdAt: now,
                    with: keys[index % keys.count])
                frames.append(NostrClientMessage.event(event).json)
            }
            let signed = frames
            let figures = try await RelayIngestRun(
                url: target.url, connections: connections, window: window, count: events
            ) { signed[$0] }.run()
            // events/s, events answered OK true, answered OK false or not at all
            print(String(format: "ingest %.1f %d %d", figures.perSecond, figures.accepted, figures.refused))
        }
    }

    /// `spotter bench relay fanout`: S subscribers, each its own connection with a REQ for kind 1 `since` now;
    /// one publisher sends pre-signed events at a steady rate; each delivery is timed from the moment its
    /// EVENT was written.
    struct RelayFanout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fanout", abstract: "Measure live fan-out: latency to every subscriber, share delivered.")

        @OptionGroup var target: RelayTarget
        @Option(help: "Subscribers (one connection each).") var subscribers = 200
        @Option(help: "Events to publish.") var messages = 50
        @Option(help: "Events per second.") var rate = 10.0
        @Option(help: "Seconds to wait for the last deliveries.") var drain = 10.0

        func run() async throws {
            let logger = RelayFrames.logger
            let key = try NostrSecretKey.generate()
            // Subscribers ask for events from `since` on, and the events carry exactly that time, so nothing
            // stored earlier matches and no event is from the future when it is sent.
            let since = Int64(Date().timeIntervalSince1970) + 2
            let frames = try (0..<messages).map { number in
                let event = try NostrEvent.sign(
                    kind: NostrKind(rawValue: 1), content: "\(RelayFanoutRun.marker)\(number) live", createdAt: since,
                    with: key)
                return NostrClientMessage.event(event).json
            }
            let run = RelayFanoutRun(url: target.url, subscribers: subscribers, messages: messages, logger: logger)
            let ready = try await run.connectAll(since: since)
            while Int64(Date().timeIntervalSince1970) < since { try await Task.sleep(for: .milliseconds(10)) }
            try await run.publish(frames, rate: rate)
            let figures = try await run.collect(drain: .seconds(drain))
            await run.closeAll()
            // subscribers ready, share delivered (%), p50 ms, p99 ms, max ms
            print(
                String(
                    format: "fanout %d %.2f %.2f %.2f %.2f", ready, figures.deliveredShare * 100, figures.p50,
                    figures.p99, figures.max))
        }
    }

    /// `spotter bench relay req`: "the newest 20 notes by these 100 authors" over C connections, one REQ at a
    /// time on each, for --duration seconds; REQs per second until EOSE. Every 50th answer is decoded and
    /// checked: 20 events, all by the asked authors, newest first.
    struct RelayQuery: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "req", abstract: "Measure REQ throughput: newest 20 by 100 authors, until EOSE.")

        @OptionGroup var target: RelayTarget
        @Option(help: "Authors the stored events are by (as `load` was given).") var authors = 10_000
        @Option(help: "Connections.") var connections = 4
        @Option(help: "Seconds to measure (after one second of warm-up).") var duration = 10.0

        func run() async throws {
            let keys = try RelayBenchKeys.make(authors).map(\.publicKey)
            let figures = try await RelayQueryRun(
                url: target.url, connections: connections, authors: keys, duration: .seconds(duration)
            ).run()
            // REQs/s, REQs timed, answers checked, answers that failed the check, mean events per answer
            print(
                String(
                    format: "req %.1f %d %d %d %.1f", figures.perSecond, figures.requests, figures.checked,
                    figures.failed, figures.meanEvents))
        }
    }
}

/// The benchmark's authors: the same keys in every process (seeded), so `req` asks for the authors `load`
/// stored.
enum RelayBenchKeys {
    static func make(_ count: Int, offset: Int = 0) throws -> [NostrSecretKey] {
        try (0..<count).map { index in
            var random = SeededGenerator(seed: 27, stream: 1301, offset: (offset + index) * 4)
            let words = (0..<4).map { _ in random.next() }
            let bytes = words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } }
            return try NostrSecretKey(bytes: bytes)
        }
    }
}

/// Reads a relay's answer to `EVENT` without decoding JSON (relays differ in spacing): nil when `text` is not
/// an `OK`, else whether the event was accepted.
enum RelayFrames {
    static func okAccepted(_ text: String) -> Bool? {
        guard text.hasPrefix(#"["OK""#) else { return nil }
        // ["OK", "<id>", true|false, "…"]: the first letter after the id's closing quote and a comma.
        var quotes = 0
        var afterID = false
        for character in text.utf8 {
            if afterID {
                if character == UInt8(ascii: "t") { return true }
                if character == UInt8(ascii: "f") { return false }
                continue
            }
            if character == UInt8(ascii: "\"") {
                quotes += 1
                if quotes == 4 { afterID = true }
            }
        }
        return nil
    }

    static func isEndOfStoredEvents(_ text: String) -> Bool { text.hasPrefix(#"["EOSE""#) }
    static func isEvent(_ text: String) -> Bool { text.hasPrefix(#"["EVENT""#) }
    static func isClosed(_ text: String) -> Bool { text.hasPrefix(#"["CLOSED""#) }
    static func isNotice(_ text: String) -> Bool { text.hasPrefix(#"["NOTICE""#) }

    static var logger: Logger {
        var logger = Logger(label: "spotter-bench")
        logger.logLevel = .error
        return logger
    }

    static var configuration: WebSocketClientConfiguration {
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 22
        return configuration
    }
}

/// Publishes `count` events over `connections` sockets, keeping `window` unanswered on each; the clock runs
/// from when every socket is open to the last `OK`.
struct RelayIngestRun {
    struct Figures {
        var perSecond: Double
        var accepted: Int
        /// Answered `OK false`, or not answered before the socket closed.
        var refused: Int
    }

    let url: String
    let connections: Int
    let window: Int
    let count: Int
    /// The EVENT message for an index (may sign it).
    let frame: @Sendable (Int) throws -> String

    func run() async throws -> Figures {
        let logger = RelayFrames.logger
        let open = NIOLockedValueBox(0)
        let started = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        let finished = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        let (url, connections, window, count, frame) = (url, connections, window, count, frame)
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for connection in 0..<connections {
                group.addTask {
                    // This connection's events: every `connections`th index from its own.
                    let mine = stride(from: connection, to: count, by: connections).map { $0 }
                    let result = NIOLockedValueBox((0, 0))
                    _ = try await WebSocketClient.connect(
                        url: url, configuration: RelayFrames.configuration, logger: logger
                    ) { inbound, outbound, _ in
                        var accepted = 0
                        var answered = 0
                        defer { result.withLockedValue { $0 = (accepted, answered) } }
                        open.withLockedValue { $0 += 1 }
                        while started.withLockedValue({ $0 }) == nil { try await Task.sleep(for: .milliseconds(1)) }
                        var next = 0
                        while next < min(window, mine.count) {
                            try await outbound.write(.text(try frame(mine[next])))
                            next += 1
                        }
                        guard !mine.isEmpty else { return }
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            guard case .text(let text) = message, let ok = RelayFrames.okAccepted(text) else {
                                continue
                            }
                            answered += 1
                            if ok { accepted += 1 }
                            if next < mine.count {
                                try await outbound.write(.text(try frame(mine[next])))
                                next += 1
                            }
                            if answered == mine.count { break }
                        }
                        let now = ContinuousClock.now
                        finished.withLockedValue { $0 = Swift.max($0 ?? now, now) }
                        try? await outbound.close(.normalClosure, reason: nil)
                    }
                    return result.withLockedValue { $0 }
                }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while open.withLockedValue({ $0 }) < connections && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            started.withLockedValue { $0 = .now }
            var accepted = 0
            for try await result in group { accepted += result.0 }
            return accepted
        }
        // From every socket open to the last OK.
        let end = finished.withLockedValue { $0 } ?? .now
        let elapsed = (end - (started.withLockedValue { $0 } ?? end)).seconds
        return Figures(perSecond: Double(results) / elapsed, accepted: results, refused: count - results)
    }
}

/// One fan-out run: the subscribers' sockets, the publisher's, and what arrived when.
final class RelayFanoutRun: Sendable {
    /// Latencies run from writing the EVENT to receiving it.
    typealias Figures = FanoutFigures

    /// Marks a published event's number in its content, found without decoding JSON.
    static let marker = "fanout-"

    let url: String
    let subscribers: Int
    let messages: Int
    let logger: Logger
    private let tally: FanoutTally

    init(url: String, subscribers: Int, messages: Int, logger: Logger) {
        self.url = url
        self.subscribers = subscribers
        self.messages = messages
        self.logger = logger
        tally = FanoutTally(subscribers: subscribers, messages: messages)
    }

    /// Connects every subscriber, a hundred at a time, and waits until each has had its EOSE (its REQ is
    /// live). Returns how many are ready.
    func connectAll(since: Int64) async throws -> Int {
        let request = #"["REQ","live",{"kinds":[1],"since":\#(since)}]"#
        return try await tally.connect(subscribers) { _ in await self.subscribe(request) }
    }

    /// Connects one subscriber, trying again (up to three times in all) when the connection cannot be made: a
    /// relay busy accepting hundreds at once may drop a few.
    private func subscribe(_ request: String) async {
        let connected = NIOLockedValueBox(false)
        for attempt in 1...3 {
            do {
                try await subscribeOnce(request, connected: connected)
                return
            } catch {
                // A socket that was open and then failed counts as it is; only a failed connect is retried.
                if connected.withLockedValue({ $0 }) { return }
                if attempt == 3 { ProgressBar.write("a subscriber could not connect: \(error)\n") }
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }

    private func subscribeOnce(_ request: String, connected: NIOLockedValueBox<Bool>) async throws {
        _ = try await WebSocketClient.connect(url: url, configuration: RelayFrames.configuration, logger: logger) {
            inbound, outbound, _ in
            connected.withLockedValue { $0 = true }
            self.tally.keep(outbound)
            try await outbound.write(.text(request))
            for try await message in inbound.messages(maxSize: 1 << 22) {
                guard case .text(let text) = message else { continue }
                let arrived = ContinuousClock.now
                if let number = FanoutRun.messageNumber(in: text), RelayFrames.isEvent(text) {
                    self.tally.record(number, arrived: arrived)
                } else if RelayFrames.isEndOfStoredEvents(text) {
                    self.tally.markReady()
                }
            }
        }
    }

    /// Publishes the events on one socket at a steady rate, not waiting for each `OK` before the next.
    func publish(_ frames: [String], rate: Double) async throws {
        let tally = tally
        _ = try await WebSocketClient.connect(url: url, configuration: RelayFrames.configuration, logger: logger) {
            inbound, outbound, _ in
            let start = ContinuousClock.now
            for (number, frame) in frames.enumerated() {
                try await Task.sleep(until: start + .seconds(Double(number) / rate), clock: .continuous)
                tally.sent(number)
                try await outbound.write(.text(frame))
            }
            var answered = 0
            var refused = 0
            for try await message in inbound.messages(maxSize: 1 << 22) {
                guard case .text(let text) = message, let ok = RelayFrames.okAccepted(text) else { continue }
                if !ok {
                    refused += 1
                    if refused <= 3 { ProgressBar.write("publish refused: \(text)\n") }
                }
                answered += 1
                if answered == frames.count { break }
            }
            try? await outbound.close(.normalClosure, reason: nil)
        }
    }

    /// Waits until everything arrived or `drain` passed since publishing ended, then computes the figures.
    func collect(drain: Duration) async throws -> Figures {
        try await tally.figures(drain: drain, poll: .milliseconds(20), outOf: subscribers * messages)
    }

    func closeAll() async { await tally.closeAll() }
}

/// REQs for the newest 20 by 100 random authors, one at a time per connection, each closed after its EOSE.
struct RelayQueryRun {
    struct Figures {
        var perSecond: Double
        var requests: Int
        var checked: Int
        var failed: Int
        var meanEvents: Double
    }

    /// Untimed REQs first, so caches are warm when timing starts.
    static let warmUp: Duration = .seconds(1)
    static let limit = 20

    let url: String
    let connections: Int
    let authors: [NostrPublicKey]
    let duration: Duration

    func run() async throws -> Figures {
        let logger = RelayFrames.logger
        let (url, authors, duration) = (url, authors, duration)
        let begin = ContinuousClock.now
        let timingStarts = begin + Self.warmUp
        let timingEnds = timingStarts + duration
        let totals = try await withThrowingTaskGroup(of: Figures.self) { group in
            for connection in 0..<connections {
                group.addTask {
                    let result = NIOLockedValueBox(
                        Figures(perSecond: 0, requests: 0, checked: 0, failed: 0, meanEvents: 0))
                    _ = try await WebSocketClient.connect(
                        url: url, configuration: RelayFrames.configuration, logger: logger
                    ) { inbound, outbound, _ in
                        var figures = Figures(perSecond: 0, requests: 0, checked: 0, failed: 0, meanEvents: 0)
                        var events = 0
                        var random = SeededGenerator(seed: 27, stream: 20, offset: connection)
                        defer {
                            figures.meanEvents = Double(events)
                            result.withLockedValue { $0 = figures }
                        }
                        var number = 0
                        var asked: Set<NostrPublicKey> = []
                        var answer: [String] = []
                        var sentAt = ContinuousClock.now
                        var said = 0
                        func show(_ text: String) {
                            said += 1
                            if said <= 3 { ProgressBar.write("relay said: \(text)\n") }
                        }
                        func ask() async throws {
                            number += 1
                            asked = []
                            while asked.count < 100 {
                                asked.insert(authors[Int.random(in: 0..<authors.count, using: &random)])
                            }
                            let filter = NostrFilter(authors: Array(asked), limit: Self.limit)
                            answer = []
                            sentAt = .now
                            try await outbound.write(
                                .text(NostrClientMessage.request(subscription: "q\(number)", filters: [filter]).json))
                        }
                        try await ask()
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            guard case .text(let text) = message else { continue }
                            if RelayFrames.isEvent(text) {
                                answer.append(text)
                                continue
                            }
                            if RelayFrames.isNotice(text) { show(text) }
                            // A CLOSED ends the REQ as EOSE would, and fails the check.
                            let closed = RelayFrames.isClosed(text)
                            if closed { show(text) }
                            guard closed || RelayFrames.isEndOfStoredEvents(text) else { continue }
                            let now = ContinuousClock.now
                            if sentAt >= timingStarts && now <= timingEnds {
                                figures.requests += 1
                                events += answer.count
                                if closed {
                                    figures.checked += 1
                                    figures.failed += 1
                                } else if figures.requests % 50 == 1 {
                                    figures.checked += 1
                                    if !Self.isNewestFirst(answer, by: asked) { figures.failed += 1 }
                                }
                            }
                            try await outbound.write(
                                .text(NostrClientMessage.close(subscription: "q\(number)").json))
                            if now > timingEnds { break }
                            try await ask()
                        }
                        try? await outbound.close(.normalClosure, reason: nil)
                    }
                    return result.withLockedValue { $0 }
                }
            }
            var totals = Figures(perSecond: 0, requests: 0, checked: 0, failed: 0, meanEvents: 0)
            for try await figures in group {
                totals.requests += figures.requests
                totals.checked += figures.checked
                totals.failed += figures.failed
                totals.meanEvents += figures.meanEvents
            }
            return totals
        }
        var figures = totals
        figures.perSecond = Double(totals.requests) / duration.seconds
        figures.meanEvents = totals.meanEvents / Double(max(1, totals.requests))
        return figures
    }

    /// An answer is right when it has `limit` events, each by an asked author, newest first.
    static func isNewestFirst(_ answer: [String], by asked: Set<NostrPublicKey>) -> Bool {
        let events = answer.compactMap { text -> NostrEvent? in
            guard case .event(_, let event) = try? NostrRelayMessage(json: text) else { return nil }
            return event
        }
        guard events.count == limit, events.allSatisfy({ asked.contains($0.pubkey) }) else { return false }
        return zip(events, events.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt }
    }
}
