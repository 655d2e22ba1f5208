import ArgumentParser
import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SpotterCore
import SpotterModels

extension Bench {
    /// `spotter bench realtime-users`: accounts with ready access tokens for the fan-out benchmark, so thousands
    /// of sockets can connect without thousands of bcrypt sign-ins.
    struct RealtimeUsers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "realtime-users",
            abstract: "Create accounts with access tokens for `spotter bench fanout`.",
            discussion: """
                Writes one access token per line to --tokens-file (readable by its owner only): the first \
                publishes, the others subscribe. The tokens last a day; use a database made for the benchmark.
                """)

        @OptionGroup var options: ServerOptions
        @Option(help: "Accounts to create (subscribers + 1 publisher).") var users = 10_001
        @Option(help: "Where to write the tokens.") var tokensFile: String

        func run() async throws {
            let (users, tokensFile) = (users, tokensFile)
            try await withSeedableStorage(options) { storage, bulk in
                let tokens = try await BenchAccounts.make(users, prefix: "listener", storage: storage, bulk: bulk)
                    .tokens
                let written = FileManager.default.createFile(
                    atPath: tokensFile, contents: Data((tokens.joined(separator: "\n") + "\n").utf8),
                    attributes: [.posixPermissions: 0o600])
                guard written else { throw ValidationError("Could not write \(tokensFile).") }
                ProgressBar.write("\(users) accounts with tokens in \(tokensFile).\n")
            }
        }
    }

    /// `spotter bench fanout`: N WebSocket subscribers on one topic and a publisher at a steady rate, against
    /// Spotter's `community:feed` or an nchan channel, with the same client; prints one markdown row.
    struct Fanout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure realtime fan-out: delivery latency, share delivered, memory per idle socket.",
            discussion: """
                Connects the subscribers, measures the server's memory (VmRSS of --server-pid, summed) before \
                and after they connect, publishes --messages at --rate per second, and times each delivery from \
                the moment its publish request started. Run it on another core than the server (taskset).
                """)

        enum Target: String, ExpressibleByArgument, CaseIterable {
            case spotter
            case nchan
        }

        /// Which Spotter topic the subscribers join.
        enum Topic: String, ExpressibleByArgument, CaseIterable {
            /// `community:feed`: every public post, as the nchan channel carries every message.
            case community
            /// Each subscriber's own `feed:<id>`: the publisher's posts reach those who follow them. Needs
            /// `TOKEN USER_ID` lines (`spotter bench http-plan --followers-of`).
            case following
        }

        @Option(help: "spotter (community:feed) or nchan (/sub and /pub on the same channel).") var target: Target
        @Option(help: "Spotter only: community (community:feed) or following (each subscriber's feed:<id>).")
        var topic: Topic = .community
        @Option(help: "The server's base URL.") var url = "http://127.0.0.1:8080"
        @Option(help: "Tokens from `spotter bench realtime-users` (spotter only).") var tokensFile: String?
        @Option(help: "Subscribers to connect.") var subscribers = 1000
        @Option(help: "Messages to publish.") var messages = 100
        @Option(help: "Messages per second.") var rate = 10.0
        @Option(help: "Server process ids whose memory to measure (repeat for several).") var serverPid: [Int32] = []
        @Option(help: "Seconds to wait for the last deliveries.") var drain = 10.0
        @Flag(help: "Print the table header first.") var header = false

        func validate() throws {
            guard subscribers >= 1, messages >= 1, rate > 0 else {
                throw ValidationError("--subscribers and --messages must be at least 1, --rate above 0.")
            }
            if target == .spotter && tokensFile == nil { throw ValidationError("--tokens-file is needed for spotter.") }
        }

        func run() async throws {
            var logger = Logger(label: "spotter-bench")
            logger.logLevel = .error
            let lines = try tokensFile.map { try Self.readTokens($0, needed: subscribers + 1) } ?? []
            let tokens = lines.map { String($0.split(separator: " ").first ?? "") }
            let channels = try lines.map { line -> String in
                guard topic == .following else { return "community:feed" }
                let parts = line.split(separator: " ")
                guard parts.count == 2, let user = UserID(String(parts[1])) else {
                    throw ValidationError("--topic following needs TOKEN USER_ID lines (http-plan --followers-of).")
                }
                return "feed:\(user)"
            }
            let run = FanoutRun(
                target: target, base: url, tokens: tokens, channels: channels, subscribers: subscribers,
                messages: messages, logger: logger)
            let before = Self.residentKilobytes(serverPid)
            let connected = try await run.connectAll()
            try await Task.sleep(for: .seconds(2))  // let the server settle (presence batches, allocator)
            let after = Self.residentKilobytes(serverPid)
            try await run.publish(rate: rate)
            let figures = try await run.collect(drain: .seconds(drain))
            await run.closeAll()
            if header {
                print(
                    "| server | subscribers | messages | rate/s | delivered | p50 ms | p99 ms | max ms | KB/idle socket |"
                )
                print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
            }
            let memory = serverPid.isEmpty ? "–" : String(format: "%.1f", Double(after - before) / Double(connected))
            print(
                "| \(target.rawValue) | \(connected) | \(messages) | \(String(format: "%g", rate)) | "
                    + String(
                        format: "%.2f%% | %.1f | %.1f | %.1f | ", figures.deliveredShare * 100, figures.p50,
                        figures.p99, figures.max) + "\(memory) |")
        }

        static func readTokens(_ path: String, needed: Int) throws -> [String] {
            let tokens = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            guard tokens.count >= needed else {
                throw ValidationError("\(path) holds \(tokens.count) tokens; \(needed) are needed.")
            }
            return tokens
        }

        /// The summed resident memory of `pids` in KiB, from /proc (Linux).
        static func residentKilobytes(_ pids: [Int32]) -> Int {
            pids.reduce(0) { total, pid in
                let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
                let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
                return total + (line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0)
            }
        }
    }
}

/// One benchmark run: the subscribers' sockets, the publisher, and what arrived when.
final class FanoutRun: Sendable {
    /// Latencies run from the publish request to the delivery.
    typealias Figures = FanoutFigures

    /// Marks a message in the published text, so a subscriber finds its number without decoding JSON.
    static let marker = "fanout-"

    let target: Bench.Fanout.Target
    let base: String
    let tokens: [String]
    /// The topic each token's socket joins (Spotter only).
    let channels: [String]
    let subscribers: Int
    let messages: Int
    let logger: Logger
    private let tally: FanoutTally

    init(
        target: Bench.Fanout.Target, base: String, tokens: [String], channels: [String], subscribers: Int,
        messages: Int, logger: Logger
    ) {
        self.target = target
        self.base = base
        self.tokens = tokens
        self.channels = channels
        self.subscribers = subscribers
        self.messages = messages
        self.logger = logger
        tally = FanoutTally(subscribers: subscribers, messages: messages)
    }

    /// Connects every subscriber, a hundred at a time, and waits until each has joined (Spotter) or connected
    /// (nchan). Returns how many are ready.
    func connectAll() async throws -> Int {
        let socketBase = base.replacingOccurrences(of: "http://", with: "ws://")
        let (target, tokens) = (target, tokens)
        let ready = try await tally.connect(subscribers) { index in
            let url =
                target == .spotter
                ? "\(socketBase)/socket/websocket?vsn=2.0.0&token=\(tokens[index + 1])" : "\(socketBase)/sub"
            await self.subscribe(url, channel: target == .spotter ? self.channels[index + 1] : "")
        }
        ProgressBar.write("\(ready) of \(subscribers) subscribers ready.\n")
        return ready
    }

    private func subscribe(_ url: String, channel: String) async {
        _ = try? await WebSocketClient.connect(url: url, configuration: PhoenixHeartbeat.client, logger: logger) {
            inbound, outbound, _ in
            self.tally.keep(outbound)
            let heartbeat: Task<Void, Never>?
            if self.target == .spotter {
                // Presence off: nchan has none, so both measure fan-out alone.
                try await outbound.write(.text(#"["1","1",""# + channel + #"","phx_join",{"presence":false}]"#))
                heartbeat = PhoenixHeartbeat.start(on: outbound)
            } else {
                heartbeat = nil
                self.tally.markReady()
            }
            defer { heartbeat?.cancel() }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                let arrived = ContinuousClock.now
                if let number = Self.messageNumber(in: text) {
                    self.tally.record(number, arrived: arrived)
                } else if self.target == .spotter, text.hasPrefix(#"["1","1",""# + channel + #"","phx_reply""#) {
                    self.tally.markReady()
                }
            }
        }
    }

    static func messageNumber(in text: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// Publishes the messages at a steady rate, each in its own request so a slow answer delays no other.
    func publish(rate: Double) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<messages {
                let due = start + .seconds(Double(number) / rate)
                try? await Task.sleep(until: due, clock: .continuous)
                group.addTask {
                    var request = HTTPClientRequest(
                        url: self.target == .spotter ? "\(self.base)/api/v1/posts" : "\(self.base)/pub")
                    request.method = .POST
                    let text = "\(Self.marker)\(number) steady state, easy miles #run"
                    if self.target == .spotter {
                        request.headers.add(name: "Authorization", value: "Bearer \(self.tokens[0])")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: #"{"kind":"note","text":"\#(text)"}"#))
                    } else {
                        request.body = .bytes(ByteBuffer(string: text))
                    }
                    self.tally.sent(number)
                    do {
                        let response = try await client.execute(request, timeout: .seconds(30))
                        if response.status.code >= 300 {
                            ProgressBar.write("publish \(number): HTTP \(response.status.code)\n")
                        }
                        _ = try await response.body.collect(upTo: 1 << 20)
                    } catch {
                        ProgressBar.write("publish \(number) failed: \(error)\n")
                    }
                }
            }
        }
        try await client.shutdown()
    }

    /// Waits until everything arrived or `drain` passed since publishing ended, then computes the figures.
    func collect(drain: Duration) async throws -> Figures {
        try await tally.figures(drain: drain, poll: .milliseconds(50), outOf: tally.ready * messages)
    }

    func closeAll() async { await tally.closeAll() }
}

/// What the benchmark clients share on a Spotter socket.
enum PhoenixHeartbeat {
    /// Room for a large `missed` reply or a long post.
    static var client: WebSocketClientConfiguration {
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 20
        return configuration
    }

    /// Spotter closes a socket after 60 s without a frame from the client: a heartbeat every 25 s, until
    /// cancelled. Refs start at 2, after the join's.
    static func start(on outbound: WebSocketOutboundWriter) -> Task<Void, Never> {
        Task {
            var ref = 2
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(25))
                try? await outbound.write(.text(#"[null,"\#(ref)","phoenix","heartbeat",{}]"#))
                ref += 1
            }
        }
    }
}
