import Foundation
import SpotterKit

/// rust-nostr's `LocalRelay` (PyPI `nostr-sdk`) in a process of its own, started by `local_relay.py` beside
/// this file: a relay nobody here wrote, which a test can stop and start again on the same port to play a
/// relay that is down.
final class LocalRelayProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let url: NostrRelayURL
    /// Where the relay appends the id of every event it is offered, across restarts.
    let log: URL
    private let refuse: String?
    private var process: Process?

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let python = root.appendingPathComponent(".venv/bin/python")
    static let script = root.appendingPathComponent("Tests/SpotterKitTests/Nostr/local_relay.py")

    /// A relay on a free port, not started yet (so, down).
    init(refuse: String? = nil) async throws {
        port = try await LiveServer.freePort()
        url = NostrRelayURL("ws://127.0.0.1:\(port)")!
        log = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).log")
        self.refuse = refuse
    }

    deinit {
        if let process { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: log)
    }

    /// Starts the relay and returns once it listens.
    func start() async throws {
        try Self.requireNostrSDK()
        let process = Process()
        process.executableURL = Self.python
        process.arguments =
            [Self.script.path, "--port", "\(port)", "--log", log.path] + (refuse.map { ["--refuse", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        let line = await Task.detached { String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) }
            .value
        guard line.hasPrefix("ws://") else {
            process.terminate()
            throw Failure(description: "the relay did not start on port \(port): \(line)")
        }
    }

    /// Stops the relay at once, as a crash or a lost network would (the port is free again once this returns).
    /// SIGKILL: the relay's runtime does not end on SIGTERM.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// How many times the relay was offered each event, across restarts.
    var offered: [String: Int] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").reduce(into: [:]) { $0[String($1), default: 0] += 1 }
    }

    static func requireNostrSDK() throws {
        let check = Process()
        check.executableURL = python
        check.arguments = ["-c", "import nostr_sdk"]
        check.standardError = FileHandle.nullDevice
        var ran = false
        if (try? check.run()) != nil {
            check.waitUntilExit()
            ran = check.terminationStatus == 0
        }
        guard ran else {
            throw Failure(
                description: "\(python.path) cannot import nostr_sdk (rust-nostr's Python bindings): run scripts/test, "
                    + "which installs it in .venv")
        }
    }
}
