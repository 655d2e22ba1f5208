import Foundation
import SpotterTestSupport
import Testing

/// What a deploy sees when it stops the server: `spotter serve` as a process, sent SIGTERM as systemd sends it.
@Suite("Graceful shutdown")
struct GracefulShutdownTests {
    @Test(
        "SIGTERM closes every socket with 1001, upgraded on a new or a kept-alive connection, and the server exits",
        arguments: StorageBackend.available)
    func sigtermClosesEverySocket(backend: StorageBackend) async throws {
        try await CrashRecoveryTests.withServer(backend) { server, http in
            // Given Ana, signed in
            try await server.start()
            let token = try await CrashRecoveryTests.signUpAna(http)
            // and four sockets: the Phoenix socket (joined to the community feed) and the relay, each upgraded on
            // a connection's first request and on a kept-alive connection after `GET /healthz` (as Node's
            // built-in WebSocket does after a `fetch`)
            var sockets: [(name: String, socket: RawWebSocket)] = []
            for reusing in [false, true] {
                let connection = reusing ? "kept-alive" : "new"
                let phoenix = try await RawWebSocket.connect(port: server.port, token: token, reusing: reusing)
                try await phoenix.readAsItArrives()
                try await phoenix.sendText(#"["1","1","community:feed","phx_join",{}]"#)
                _ = try await phoenix.read { $0.textValue?.contains(#""ok""#) == true }
                sockets.append(("/socket on a \(connection) connection", phoenix))
                let relay = try await RawWebSocket.connect(port: server.port, path: "/relay", reusing: reusing)
                try await relay.readAsItArrives()
                _ = try await relay.read { $0.textValue?.contains("AUTH") == true }
                sockets.append(("/relay on a \(connection) connection", relay))
            }
            defer { for (_, socket) in sockets { Task { await socket.close() } } }

            // When the server is told to stop
            let stopping = ContinuousClock.now
            server.send(SIGTERM)

            // Then every socket hears that the server is going away (1001), and answers as a client does
            for (name, socket) in sockets {
                let close = try? await socket.read(
                    until: { if case .close = $0 { true } else { false } }, timeout: .seconds(5))
                #expect(close == .close(code: 1001, reason: "server shutting down"), "\(name)")
                try? await socket.send(opcode: 0x8, [0x03, 0xE9])
            }
            // and the process ends, cleanly, within seconds of the signal (30 ms on a quiet machine, 4 s once with
            // much of the suite beside it on two cores; before, it waited for the clients to leave)
            let status = await server.waitForExit(within: .seconds(15))
            let took = ContinuousClock.now - stopping
            #expect(status == 0, "the server still ran \(took) after SIGTERM")
            #expect(took < .seconds(5), "the server took \(took) to stop")
            if status == nil {
                for (_, socket) in sockets { await socket.close() }
                await server.kill()
            }
        }
    }
}
