import Foundation
import Testing

/// What a stranger's bytes get from a real `spotter serve` process over raw TCP: malformed HTTP is answered and
/// the connection closed, slow and idle connections are let go, and no one client, nor a crowd, can take every
/// descriptor. The HTTP layer is the same on both databases, so these run on SQLite.
@Suite("Connections strangers cannot hold", .serialized)
struct ConnectionHardeningTests {
    /// Requests NIO's parser refuses, with the answer each must get.
    static let malformed: [(name: String, bytes: [UInt8], status: Int)] = [
        ("binary garbage", [0x00, 0x01, 0x02] + Array(" garbage\r\n\r\n".utf8), 400),
        (
            "two Content-Lengths",
            Array("POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n".utf8), 400
        ),
        (
            "Content-Length with Transfer-Encoding",
            Array(
                "POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    .utf8), 400
        ),
        (
            "a negative Content-Length", Array("POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n".utf8),
            400
        ),
        ("a bare CR", Array("GET /healthz HTTP/1.1\rHost: a\r\n\r\n".utf8), 400),
        ("HTTP/0.9", Array("GET /healthz\r\n\r\n".utf8), 400),
        ("HTTP/3.0", Array("GET /healthz HTTP/3.0\r\nHost: a\r\n\r\n".utf8), 400),
        (
            "a head over 81 KB",
            Array(
                ("GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: " + String(repeating: "a", count: 83_000) + "\r\n\r\n").utf8),
            431
        ),
        (
            "5,000 headers",
            Array(
                ("GET /healthz HTTP/1.1\r\nHost: a\r\n" + (0..<5_000).map { "X-\($0): a\r\n" }.joined() + "\r\n").utf8),
            431
        ),
    ]

    @Test("malformed HTTP is answered 400 or 431 with Connection: close, and the connection is closed")
    func malformedRequests() async throws {
        try await Self.withServer { server in
            for request in Self.malformed {
                let answer = try await RawConnection.send(request.bytes, port: server.port)
                #expect(answer.status == request.status, "\(request.name): \(answer.text.prefix(80))")
                #expect(answer.header("connection") == "close", "\(request.name)")
                #expect(answer.closed, "\(request.name): the connection stayed open")
            }
            // A second request that is garbage, after a good one on the same connection, is refused the same way.
            let second = try await RawConnection.send(
                Array("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n".utf8) + [0x00, 0x01] + Array(" x\r\n\r\n".utf8),
                port: server.port)
            #expect(second.text.hasPrefix("HTTP/1.1 200") && second.closed)
        }
    }

    @Test("a chunk size that overflows is a 400 problem, not a 500, and nothing is logged as unhandled")
    func chunkSizeOverflow() async throws {
        try await Self.withServer { server in
            let answer = try await RawConnection.send(
                "POST /api/v1/auth/signin HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n",
                port: server.port)
            #expect(answer.status == 400, "\(answer.text.prefix(200))")
            #expect(answer.header("content-type") == "application/problem+json")
            #expect(answer.closed)
            #expect(!server.logTail().contains("unhandled error"))
        }
    }

    @Test(
        "idle, slow-headed and body-less connections are closed by their timeouts; an oversized body is refused at once"
    )
    func timeouts() async throws {
        let oneSecond = ["SPOTTER_IDLE_TIMEOUT": "1", "SPOTTER_HEADER_TIMEOUT": "1", "SPOTTER_BODY_TIMEOUT": "1"]
        try await Self.withServer(oneSecond) { server in
            // An idle connection: closed without a word.
            let idle = try await RawConnection.open(port: server.port)
            let idleAnswer = await idle.answer(waitingUpTo: .seconds(5))
            #expect(idleAnswer.closed && idleAnswer.text.isEmpty)
            // A head that never ends: 408.
            let partial = try await RawConnection.send("GET /healthz HTTP/1.1\r\nHost: a\r\n", port: server.port)
            #expect(partial.status == 408 && partial.closed)
            // A head sent a byte at a time: its clock runs from the first byte, and the dribble buys no time.
            let dribble = try await RawConnection.open(port: server.port)
            for byte in Array("GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ".utf8)
                + Array(repeating: UInt8(ascii: "x"), count: 40)
            {
                guard !dribble.isClosedByServer else { break }
                try? await dribble.write([byte])
                try await Task.sleep(for: .milliseconds(100))
            }
            let dribbled = await dribble.answer(waitingUpTo: .seconds(3))
            dribble.close()
            #expect(dribbled.status == 408 && dribbled.closed && dribbled.elapsed < .seconds(4), "\(dribbled)")
            // A declared body that never arrives: 408.
            let body = try await RawConnection.send(
                "POST /api/v1/auth/signin HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{", port: server.port)
            #expect(body.status == 408 && body.closed)
            // A kept-alive connection, once answered, is idle and closed too.
            let kept = try await RawConnection.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", port: server.port)
            #expect(kept.status == 200 && kept.closed)
            // 10 GB declared: refused before a byte of it is read, and the connection closed rather than drained.
            let huge = try await RawConnection.send(
                "POST /api/v1/auth/signin HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 10000000000\r\n\r\n{", port: server.port, deadline: .milliseconds(900))
            #expect(huge.status == 413 && huge.closed)
        }
    }

    @Test("one address holds at most its share of connections; the next is answered 503 and others still get in")
    func connectionsPerAddress() async throws {
        try await Self.withServer(["SPOTTER_MAX_CONNECTIONS_PER_ADDRESS": "4"]) { server in
            var held: [RawConnection] = []
            for _ in 0..<4 {
                // Each answered once, so it is surely counted before the fifth comes (accepting runs on
                // several event loops, in no set order).
                let connection = try await RawConnection.open(port: server.port)
                try await connection.write("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(await connection.received(atLeast: 12).hasPrefix("HTTP/1.1 200"))
                held.append(connection)
            }
            let fifth = try await RawConnection.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", port: server.port)
            #expect(fifth.status == 503 && fifth.closed, "\(fifth)")
            held.removeFirst().close()
            let answered = try await Self.healthz(port: server.port, retryingFor: .seconds(5))
            #expect(answered == 200)
            for connection in held { connection.close() }
        }
    }

    @Test("the descriptor limit is raised to the hard limit at start, so a shell's low default holds no one back")
    func descriptorLimitRaised() async throws {
        let hard = Self.hardDescriptorLimit()
        try #require(hard >= 1_024, "this machine's hard limit (\(hard)) leaves nothing to raise to")
        try await Self.withServer(
            ["SPOTTER_MAX_CONNECTIONS_PER_ADDRESS": "0", "SPOTTER_LOG_LEVEL": "info"],
            descriptorLimit: (200, hardToo: false)
        ) { server in
            #expect(server.logTail(lines: 200).contains("limit=\(hard) was=200"))
            var held: [RawConnection] = []
            for _ in 0..<300 { held.append(try await RawConnection.open(port: server.port)) }
            #expect(try await Self.healthz(port: server.port) == 200)
            for connection in held { connection.close() }
        }
    }

    @Test("out of descriptors, the server answers 503 at once instead of spinning on accept, and recovers")
    func outOfDescriptors() async throws {
        try await Self.withServer(
            ["SPOTTER_MAX_CONNECTIONS_PER_ADDRESS": "0"], descriptorLimit: (200, hardToo: true)
        ) { server in
            var held: [RawConnection] = []
            for _ in 0..<220 { held.append(try await RawConnection.open(port: server.port)) }
            let pid = try #require(server.processIdentifier)
            let before = try Self.cpuSeconds(pid)
            try await Task.sleep(for: .seconds(2))
            let used = try Self.cpuSeconds(pid) - before
            // A spinning accept loop takes a whole core: about 2 s of the 2 s.
            #expect(used < 0.5, "the server used \(used) s of CPU in 2 s while full")
            #expect(try await Self.healthz(port: server.port) == 503)
            for connection in held { connection.close() }
            #expect(try await Self.healthz(port: server.port, retryingFor: .seconds(5)) == 200)
        }
    }

    // MARK: Helpers

    static func withServer(
        _ environment: [String: String] = [:], descriptorLimit: (Int, hardToo: Bool)? = nil,
        _ body: (ServerProcess) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-conn-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServerProcess(
            environment: environment.merging(["SPOTTER_DATA_DIR": folder.appendingPathComponent("data").path]) {
                $1
            },
            log: folder.appendingPathComponent("server.log"))
        try await server.start(descriptorLimit: descriptorLimit.map { (limit: $0.0, hardToo: $0.hardToo) })
        do {
            try await body(server)
        } catch {
            print(server.logTail())
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// `GET /healthz` on a new connection; its status, or nil if none came. With `retryingFor`, tries again
    /// until it is answered 200 or the time is up (a closed connection takes a moment to be counted out).
    static func healthz(port: Int, retryingFor patience: Duration = .zero) async throws -> Int? {
        let end = ContinuousClock.now + patience
        while true {
            let connection = try await RawConnection.open(port: port)
            defer { connection.close() }
            try await connection.write("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
            let text = await connection.received(atLeast: 12, deadline: .seconds(5))
            let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            if status == 200 || ContinuousClock.now >= end { return status }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    static func hardDescriptorLimit() -> Int {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_max)
    }

    /// User and system CPU time the process has used, from `/proc/<pid>/stat`.
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
