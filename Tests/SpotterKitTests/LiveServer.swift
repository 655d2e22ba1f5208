import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SpotterCore
import SpotterKit
import SpotterServer
import SpotterTestSupport

/// A real Spotter server (SQLite, a fresh database) on a free port in this process, with a clock the test
/// moves: SDK tests talk to it over HTTP exactly as an app would.
enum LiveServer {
    struct NoPort: Error {}

    static func run(
        on backend: StorageBackend = .sqlite, configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
        _ body: @Sendable (_ baseURL: URL, _ clock: ManualClock) async throws -> Void
    ) async throws {
        try await runWithStorage(on: backend, configure: configure) { url, clock, _ in try await body(url, clock) }
    }

    /// Like `run`, and `body` may also look into the server's database (for what no API shows).
    static func runWithStorage(
        on backend: StorageBackend = .sqlite, configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
        _ body: @Sendable (_ baseURL: URL, _ clock: ManualClock, _ storage: any SpotterStorage) async throws -> Void
    ) async throws {
        var configuration = AppConfiguration()
        configuration.bcryptCost = 4
        configuration.runsMaintenance = false
        configuration.port = 0
        configure(&configuration)
        let settings = configuration
        let clock = ManualClock(Date())
        try await backend.withIsolatedStorage { storage in
            let app = try await buildApplication(
                configuration: settings, storage: storage, clock: clock, logger: StorageBackend.logger)
            try await app.test(.live) { client in
                guard let port = client.port else { throw NoPort() }
                try await body(URL(string: "http://127.0.0.1:\(port)")!, clock, storage)
            }
        }
    }

    /// Someone signed up on the server at `url`, signed in on a client of their own.
    static func person(
        _ name: String, _ url: URL, password: String, transport: any HTTPTransport = URLSessionTransport()
    ) async throws -> SpotterClient {
        let client = SpotterClient(baseURL: url, transport: transport)
        try await client.signUp(email: "\(name)@example.com", username: name, password: password)
        return client
    }

    // A server that can stop and start again on one port, over one database, for offline and reconnect tests.

    /// Starts the app on `port` and waits until it answers.
    static func start(
        storage: any SpotterStorage, port: Int, clock: any WallClock = SystemClock(),
        configure: (inout AppConfiguration) -> Void = { _ in }
    ) async throws -> Task<Void, any Error> {
        var configuration = AppConfiguration()
        configuration.bcryptCost = 4
        configuration.runsMaintenance = false
        configuration.port = port
        configuration.postRules.newAccountAge = 0
        configure(&configuration)
        let app = try await buildApplication(
            configuration: configuration, storage: storage, clock: clock, logger: StorageBackend.logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        let health = URL(string: "http://127.0.0.1:\(port)/healthz")!
        // A deadline, not a count: a fresh PostgreSQL schema's migrations, with the full suite running beside
        // them on two cores, took longer than the 5 s that 100 tries of 50 ms gave.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if (try? await URLSessionTransport().send(HTTPRequestData(method: "GET", url: health)))?.status == 200 {
                return task
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        throw SpotterClientError.transport("the server did not start")
    }

    /// A port that is free now and that no other socket in the suite can be given while the server is away.
    ///
    /// Why not port 0: the kernel hands out ports from the ephemeral range (32768–60999 on Linux) to every
    /// socket bound to 0 and to every outgoing connection, and the suite opens hundreds of both at once. A
    /// port from that range, free when asked, was once given to another test's server before this one bound
    /// it again; the client then signed up on the wrong server and got a 409. Below the range only sockets
    /// that ask for a port by number can take it, and in this suite only these restart tests do.
    static func freePort() async throws -> Int {
        for _ in 0..<50 {
            let port = Int.random(in: 20_000..<32_000)
            guard
                let channel = try? await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .bind(host: "127.0.0.1", port: port).get()
            else { continue }
            try await channel.close()
            return port
        }
        throw NoPort()
    }
}

/// Records the waits a client asks for instead of sleeping, and can move the server's clock by them.
final class RecordingSleeper: Sendable {
    private let waits = NIOLockedValueBox<[Duration]>([])
    let clock: ManualClock?

    init(moving clock: ManualClock? = nil) { self.clock = clock }

    var recorded: [Duration] { waits.withLockedValue { $0 } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { duration in
            self.waits.withLockedValue { $0.append(duration) }
            self.clock?.advance(by: Double(duration.components.seconds) + 1)
        }
    }
}

/// The real network, with a count of requests per path and, optionally, made-up failures first.
final class CountingTransport: HTTPTransport {
    private let base = URLSessionTransport()
    private let counts = NIOLockedValueBox<[String: Int]>([:])
    private let failures = NIOLockedValueBox<[Int]>([])

    /// The next requests get these statuses (an empty body) instead of reaching the server.
    init(failFirstWith statuses: [Int] = []) { failures.withLockedValue { $0 = statuses } }

    func count(_ path: String) -> Int { counts.withLockedValue { $0[path] ?? 0 } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        counts.withLockedValue { $0[request.url.path, default: 0] += 1 }
        if let status = failures.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) {
            return HTTPResponseData(status: status, headers: [:], body: Data())
        }
        return try await base.send(request)
    }
}
