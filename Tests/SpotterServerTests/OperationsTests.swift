import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Operations endpoints and cross-cutting HTTP")
struct OperationsTests {
    @Test("healthz and readyz answer", arguments: StorageBackend.available)
    func health(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let health = try await api.call(.get, "/healthz")
            #expect(health.status == .ok)
            #expect(health.text.contains(#""status":"ok""#))
            let ready = try await api.call(.get, "/readyz")
            #expect(ready.status == .ok)
            #expect(ready.text.contains(#""database":"ok""#))
        }
    }

    @Test("metrics count requests per route in Prometheus text")
    func metrics() async throws {
        try await TestApp.run(.sqlite) { api in
            _ = try await api.call(.get, "/healthz")
            let metrics = try await api.call(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains(#"hb_requests{http_route="/healthz""#))
            #expect(metrics.text.contains("http_server_request_duration"))
            #expect(metrics.text.contains(#"http_server_active_requests{http_request_method="GET"}"#))

            // A refusal is counted under its route and status, as Hummingbird's own middleware named them.
            let refused = try await api.call(.get, "/api/v1/me")
            #expect(refused.status == .unauthorized)
            let after = try await api.call(.get, "/metrics")
            #expect(
                after.text.contains(
                    #"hb_requests{http_route="/api/v1/me",http_request_method="GET",http_response_status_code="401"}"#))
        }
    }

    @Test("the OpenAPI document is served as it is in the repository")
    func openAPI() async throws {
        try await TestApp.run(.sqlite) { api in
            let response = try await api.call(.get, "/api/openapi.yaml")
            #expect(response.status == .ok)
            let repositoryCopy = try String(contentsOf: OpenAPIFile.url, encoding: .utf8)
            #expect(response.text == repositoryCopy)
        }
    }

    @Test("every response carries a request id; a sane client id is kept, anything else replaced")
    func requestIDs() async throws {
        try await TestApp.run(.sqlite) { api in
            let header = HTTPField.Name("X-Request-Id")!
            let fresh = try await api.call(.get, "/healthz")
            let freshID = try #require(fresh.headers[header])
            #expect(freshID == freshID.lowercased() && UUIDText.parse(freshID) != nil)
            let kept = try await api.call(.get, "/healthz", headers: [header: "client-abc.123"])
            #expect(kept.headers[header] == "client-abc.123")
            let replaced = try await api.call(.get, "/healthz", headers: [header: "evil\nline"])
            #expect(replaced.headers[header] != "evil\nline")
            let problem = try await api.call(.get, "/missing", headers: [header: "trace-me"])
            #expect(problem.headers[header] == "trace-me")
            #expect(try problem.problem().requestID == "trace-me")
        }
    }

    @Test(
        "a first start on an empty database: the queue and the reminder sweep wait for the migration",
        arguments: StorageBackend.available)
    func servicesWaitForMigration(backend: StorageBackend) async throws {
        let capture = LogCapture()
        try await TestApp.run(backend, logger: capture.logger(), configure: { $0.delivery.runsQueue = true }) { api in
            #expect(try await api.call(.get, "/healthz").status == .ok)
            // Both run at once when the database is ready; give them that moment before reading the log.
            try await Task.sleep(for: .milliseconds(300))
        }
        let lines = capture.all
        #expect(lines.contains { $0.contains("database ready") })
        for line in lines {
            #expect(!line.contains("delivery queue unavailable") && !line.contains("reminder sweep failed"), "\(line)")
        }
    }

    @Test("passwords and tokens never reach the log")
    func secretsStayOutOfLogs() async throws {
        let capture = LogCapture()
        let password = "hunter2-correct-horse"
        try await TestApp.run(.sqlite, logger: capture.logger()) { api in
            let tokens = try await api.signup("ana", password: password)
            _ = try await api.signin("ana", password: password)
            _ = try await api.signin("ana", password: password + "-wrong")
            _ = try await api.call(.get, "/api/v1/me", token: tokens.accessToken)
            _ = try await api.call(.get, "/api/v1/me?token=\(tokens.accessToken)")
            _ = try await api.call(
                .post, "/api/v1/auth/refresh", body: RefreshRequest(refreshToken: tokens.refreshToken))
            // The log did record these requests…
            #expect(capture.all.contains { $0.contains("/api/v1/auth/signin") })
            // …but none of the secrets.
            for line in capture.all {
                #expect(!line.contains("hunter2"), "\(line)")
                #expect(!line.contains(tokens.accessToken), "\(line)")
                #expect(!line.contains(tokens.refreshToken), "\(line)")
            }
        }
    }
}

/// The repository's OpenAPI document, found relative to this source file.
enum OpenAPIFile {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SpotterServer/Resources/openapi.yaml")
}
