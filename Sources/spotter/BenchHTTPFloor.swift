import ArgumentParser
import Hummingbird
import Logging

extension Bench {
    /// `spotter bench http-floor`: Hummingbird with nothing of Spotter's in it, answering `GET /healthz` as
    /// Spotter does (same body, content type and server name), from the same release build.
    ///
    /// `scripts/bench-http` measures it beside Spotter and nginx, so the table shows how much of the gap to
    /// nginx is Spotter's own (middleware, request context, router size) and how much is the framework's:
    /// NIO's HTTP/1 pipeline, Hummingbird's request handling and the hop to Swift concurrency for each
    /// request, which no change of ours can remove.
    struct HTTPFloor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "http-floor",
            abstract: "Serve GET /healthz from a bare Hummingbird app: the framework's floor for the HTTP benchmark.",
            discussion: """
                Listens on 127.0.0.1 only, with no middleware, no database and no other route, until \
                interrupted. Used by scripts/bench-http.
                """)

        @Option(help: "Port to listen on (127.0.0.1).") var port = 8081

        func run() async throws {
            let router = Router()
            router.get("healthz") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
            }
            var logger = Logger(label: "spotter.bench.http-floor")
            logger.logLevel = .warning
            let app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Spotter"),
                logger: logger)
            try await app.runService()
        }
    }
}
