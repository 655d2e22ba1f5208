import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// The built `spotter` executable serving on a port of its own, as a deployment runs it: for tests of what
/// survives the process itself (`kill -9`), which an in-process app cannot show.
final class ServerProcess: @unchecked Sendable {
    let port: Int
    let environment: [String: String]
    let log: URL
    private var process: Process?

    var base: String { "http://127.0.0.1:\(port)" }

    /// A server on a free port with `environment` on top of this process's (`SPOTTER_DATA_DIR` or
    /// `SPOTTER_DATABASE_URL` say which database), logging into `log`.
    init(environment: [String: String], log: URL) async throws {
        port = try await Self.freePort()
        self.environment = environment
        self.log = log
    }

    /// The `spotter` executable next to the test bundle (SwiftPM builds it with the tests), or
    /// `SPOTTER_TEST_SERVER_EXECUTABLE`, to run these tests against another build (an older one, to see a
    /// test fail before its fix).
    static var executable: URL {
        if let other = ProcessInfo.processInfo.environment["SPOTTER_TEST_SERVER_EXECUTABLE"] {
            return URL(fileURLWithPath: other)
        }
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("spotter")
        return FileManager.default.fileExists(atPath: besideTests.path)
            ? besideTests
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
                ".build/debug/spotter")
    }

    /// Starts the server and returns once `/readyz` answers 200 (its database migrated and reachable), or
    /// throws after `deadline`. `descriptorLimit` starts it under `ulimit -n` (`soft` only: the hard limit
    /// stays, as a shell's default does; both: neither can be raised).
    func start(
        deadline: Duration = .seconds(120), descriptorLimit: (limit: Int, hardToo: Bool)? = nil
    ) async throws {
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        let process = Process()
        let serve = ["serve", "--host", "127.0.0.1", "--port", "\(port)"]
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let flag = descriptorLimit.hardToo ? "-n" : "-Sn"
            process.arguments =
                ["-c", "ulimit \(flag) \(descriptorLimit.limit) && exec \"$0\" \"$@\"", Self.executable.path] + serve
        } else {
            process.executableURL = Self.executable
            process.arguments = serve
        }
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["SPOTTER_BCRYPT_COST": "4", "SPOTTER_LOG_LEVEL": "warning"].merging(environment) { $1 }
        ) { $1 }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        self.process = process

        let clock = ContinuousClock()
        let end = clock.now + deadline
        while clock.now < end {
            guard process.isRunning else { throw Failed("spotter exited at start:\n\(logTail())") }
            // `Connection: close`, so no pooled connection is left counting against the server's limits.
            var readyz = HTTPClientRequest(url: "\(base)/readyz")
            readyz.headers.add(name: "connection", value: "close")
            if let response = try? await HTTPClient.shared.execute(readyz, timeout: .seconds(2)),
                response.status == .ok
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failed("spotter was not ready within \(deadline):\n\(logTail())")
    }

    /// `kill -9`: the process ends at once, in the middle of whatever it does, as in a crash or an OOM kill.
    /// Waits for the exit by polling rather than `Process.waitUntilExit`, which runs a run loop on the calling
    /// thread: that is one of the two threads of Swift's cooperative pool here, and with other tests beside it
    /// the whole suite could stall.
    func kill() async {
        guard let process else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        _ = await waitForExit(within: .seconds(60))
    }

    /// Stops the server gracefully (SIGTERM) and waits for it; one that has not ended within a minute is
    /// killed.
    func stop() async {
        guard let process else { return }
        process.terminate()
        if await waitForExit(within: .seconds(60)) == nil { await kill() }
    }

    /// Sends `signal` (SIGTERM, as systemd stops a service) and returns at once; `waitForExit` waits.
    func send(_ signal: Int32) {
        guard let process else { return }
        Foundation.kill(process.processIdentifier, signal)
    }

    /// Waits up to `deadline` for the process to end: its exit status, or nil while it still runs then.
    func waitForExit(within deadline: Duration) async -> Int32? {
        guard let process else { return nil }
        let end = ContinuousClock.now + deadline
        while process.isRunning {
            guard ContinuousClock.now < end else { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        self.process = nil
        return process.terminationStatus
    }

    /// The process's id while it runs (under `descriptorLimit`, the shell `exec`s into the server).
    var processIdentifier: Int32? { process?.processIdentifier }

    func logTail(lines: Int = 30) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    private static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
