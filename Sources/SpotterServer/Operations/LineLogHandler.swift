import Foundation
import Logging
import Synchronization

/// swift-log's `StreamLogHandler` line format, with the metadata rendered when a line is written rather than
/// whenever it changes.
///
/// `StreamLogHandler` re-renders all of its metadata on every change. Hummingbird adds a request id to the
/// logger of every request, and so does `RequestIDMiddleware`, so with it each request paid for two renderings
/// even when nothing was logged. Here a change only stores the value; lines below the log level cost nothing.
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: LineOutput

    /// A handler writing to standard output, as `StreamLogHandler.standardOutput` does.
    public static func standardOutput(label: String) -> LineLogHandler {
        LineLogHandler(label: label, output: .standardOutput)
    }

    init(label: String, output: LineOutput) {
        self.label = label
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata { all.merge(explicit) { _, new in new } }
        if let error = event.error {
            all["error.message"] = "\(error)"
            all["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        // The line's bytes in one buffer, and the timestamp rendered once a second: interpolating the line
        // and its metadata piece by piece, and `strftime` for every line, added up on every request at the
        // default log level, which writes an access-log line for each.
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: Self.timestamp().utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: label.utf8)
        line.append(UInt8(ascii: ":"))
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: key.utf8)
            line.append(UInt8(ascii: "="))
            line.append(contentsOf: value.description.utf8)
        }
        line.append(contentsOf: " [".utf8)
        line.append(contentsOf: event.source.utf8)
        line.append(contentsOf: "] ".utf8)
        line.append(contentsOf: event.message.description.utf8)
        line.append(UInt8(ascii: "\n"))
        output.write(line)
    }

    private static let lastSecond = Mutex<(second: time_t, text: String)>((0, ""))

    private static func timestamp() -> String {
        let now = time(nil)
        return lastSecond.withLock { last in
            if last.second != now { last = (now, render(now)) }
            return last.text
        }
    }

    private static func render(_ second: time_t) -> String {
        var now = second
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Where finished lines go: one `write(2)` per line, so lines from several threads never interleave.
struct LineOutput: Sendable {
    let descriptor: Int32

    static let standardOutput = LineOutput(descriptor: STDOUT_FILENO)

    func write(_ line: [UInt8]) {
        line.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
