import Foundation
import Logging
import Testing

@testable import SpotterServer

@Suite("LineLogHandler")
struct LineLogHandlerTests {
    @Test("writes StreamLogHandler's line format, metadata sorted, and nothing below its level")
    func lines() throws {
        let pipe = Pipe()
        var logger = Logger(label: "spotter") {
            LineLogHandler(label: $0, output: LineOutput(descriptor: pipe.fileHandleForWriting.fileDescriptor))
        }
        logger.logLevel = .info
        logger[metadataKey: "request_id"] = "r-1"
        logger[metadataKey: "hb.request.id"] = "h-2"
        logger.debug("not written")
        logger.info("GET /healthz 200", metadata: ["duration_ms": "0.4"])
        logger[metadataKey: "request_id"] = nil
        logger.warning("plain")
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines[0].hasSuffix(
                " info spotter: duration_ms=0.4 hb.request.id=h-2 request_id=r-1 [SpotterServerTests] GET /healthz 200")
        )
        #expect(lines[1].hasSuffix(" warning spotter: hb.request.id=h-2 [SpotterServerTests] plain"))
        #expect(lines[0].first?.isNumber == true)  // starts with the timestamp
    }

    @Test("the access log's duration is in milliseconds to a tenth, rounded half up")
    func durations() {
        #expect(AccessLogMiddleware.milliseconds(.zero) == "0.0")
        #expect(AccessLogMiddleware.milliseconds(.microseconds(449)) == "0.4")
        #expect(AccessLogMiddleware.milliseconds(.microseconds(450)) == "0.5")
        #expect(AccessLogMiddleware.milliseconds(.milliseconds(12)) == "12.0")
        #expect(AccessLogMiddleware.milliseconds(.nanoseconds(1_999_950)) == "2.0")
        #expect(AccessLogMiddleware.milliseconds(.seconds(3) + .microseconds(250)) == "3000.3")
    }
}
