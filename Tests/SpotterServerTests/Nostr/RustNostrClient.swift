import Foundation
import SpotterNostr

/// rust-nostr's client (PyPI `nostr-sdk`, in the repository's `.venv`), run by `rust_nostr_client.py`: an
/// implementation nobody here wrote, publishing to and subscribing on `/relay`.
enum RustNostrClient {
    struct Published: Decodable {
        var id: String
        var accepted: Bool
        var message: String
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var python: URL { repository.appendingPathComponent(".venv/bin/python") }
    static var script: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("rust_nostr_client.py") }

    /// Whether `.venv` has rust-nostr (scripts/test installs it); tests that need it say so when it hasn't.
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: python.path) }

    /// Signs with rust-nostr and publishes; the relay's `OK`.
    static func publish(
        relay: String, key: NostrSecretKey, kind: Int, content: String, tags: [[String]], createdAt: Int64? = nil
    ) async throws -> Published {
        let tagsJSON = String(decoding: try JSONEncoder().encode(tags), as: UTF8.self)
        var arguments = ["publish", relay, key.hex, "\(kind)", content, tagsJSON]
        if let createdAt { arguments.append("\(createdAt)") }
        let lines = try LineProcess(arguments: arguments)
        guard let line = try await lines.next(within: .seconds(30)) else { throw Failed("no answer from publish") }
        lines.stop()
        return try JSONDecoder().decode(Published.self, from: Data(line.utf8))
    }

    /// Subscribes with `filter`; the events come as lines, stored ones first, then `READY`, then live ones.
    static func subscribe(relay: String, filter: NostrFilter, count: Int, timeout: Int = 20) throws -> Subscription {
        let filterJSON = String(decoding: try JSONEncoder().encode(filter), as: UTF8.self)
        return Subscription(lines: try LineProcess(arguments: ["subscribe", relay, filterJSON, "\(count)", "\(timeout)"]))
    }

    final class Subscription: Sendable {
        let lines: LineProcess
        init(lines: LineProcess) { self.lines = lines }

        /// The stored events, in the order the relay sent them, once the subscription is live.
        func stored() async throws -> [NostrEvent] {
            var events: [NostrEvent] = []
            while let line = try await lines.next(within: .seconds(30)) {
                if line == "READY" { return events }
                events.append(try NostrJSON.decoder.decode(NostrEvent.self, from: Data(line.utf8)))
            }
            throw Failed("the subscription ended before it was live")
        }

        /// The next live event, or nil when none comes within `timeout`.
        func next(within timeout: Duration = .seconds(20)) async throws -> NostrEvent? {
            guard let line = try await lines.next(within: timeout) else { return nil }
            return try NostrJSON.decoder.decode(NostrEvent.self, from: Data(line.utf8))
        }

        func stop() { lines.stop() }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A child process whose standard output is read line by line.
final class LineProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var buffer = Data()
    private var lines: [String] = []
    private var ended = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(arguments: [String]) throws {
        process.executableURL = RustNostrClient.python
        process.arguments = [RustNostrClient.script.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.take(data)
        }
        try process.run()
    }

    private func take(_ data: Data) {
        let wake: [CheckedContinuation<Void, Never>] = lock.withLock {
            if data.isEmpty {
                ended = true
            } else {
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in wake { waiter.resume() }
    }

    /// The next line, or nil when the process ended or none came within `timeout`.
    func next(within timeout: Duration) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let state: (String?, Bool) = lock.withLock {
                if !lines.isEmpty { return (lines.removeFirst(), false) }
                return (nil, ended)
            }
            if let line = state.0 { return line }
            if state.1 { return nil }
            // Woken by the next output; the short bound only re-checks the deadline.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.waitForOutput() }
                group.addTask { try? await Task.sleep(for: .milliseconds(200)) }
                await group.next()
                group.cancelAll()
                self.wakeAll()
            }
        }
        return nil
    }

    private func waitForOutput() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock {
                if !lines.isEmpty || ended { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func wakeAll() {
        let wake = lock.withLock {
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in wake { waiter.resume() }
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }

    deinit { stop() }
}
