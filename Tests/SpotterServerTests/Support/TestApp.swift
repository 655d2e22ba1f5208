import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport

/// Runs the real application (real routes, middleware and storage) against a fresh database, driven through
/// Hummingbird's router test client, with a clock the test moves.
enum TestApp {
    static func run(
        _ backend: StorageBackend,
        logger: Logger = StorageBackend.logger,
        configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
        _ test: @Sendable (APIClient) async throws -> Void
    ) async throws {
        var configuration = AppConfiguration()
        configuration.bcryptCost = 4  // the minimum: tests check behaviour, not bcrypt's cost
        configuration.runsMaintenance = false
        configuration.delivery.runsQueue = false  // tests that deliver run the queue themselves
        configure(&configuration)
        let clock = ManualClock(Date())
        let finalConfiguration = configuration
        try await backend.withIsolatedStorage { storage in
            let app = try await buildApplication(
                configuration: finalConfiguration, storage: storage, clock: clock, logger: logger)
            try await app.test(.router) { client in
                try await test(
                    APIClient(
                        client: client, clock: clock, storage: storage, dataDirectory: finalConfiguration.dataDirectory)
                )
            }
        }
    }
}

extension TestApp {
    /// Runs the app on a real port (for WebSocket tests): `test` gets the HTTP client and the port.
    static func runLive(
        _ backend: StorageBackend,
        configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
        _ test: @Sendable (APIClient, Int) async throws -> Void
    ) async throws {
        var configuration = AppConfiguration()
        configuration.bcryptCost = 4
        configuration.runsMaintenance = false
        configuration.port = 0
        configuration.delivery.runsQueue = false
        configure(&configuration)
        let clock = ManualClock(Date())
        let finalConfiguration = configuration
        try await backend.withIsolatedStorage { storage in
            let app = try await buildApplication(
                configuration: finalConfiguration, storage: storage, clock: clock, logger: StorageBackend.logger)
            try await app.test(.live) { client in
                guard let port = client.port else { throw UnexpectedPort() }
                try await test(
                    APIClient(
                        client: client, clock: clock, storage: storage, dataDirectory: finalConfiguration.dataDirectory),
                    port)
            }
        }
    }

    struct UnexpectedPort: Error {}

    /// Two nodes of one community on one fresh PostgreSQL schema, each an app of its own (its configuration
    /// made afresh by `configure`: a data folder each, say), driven through their routers, with one clock.
    static func runTwoNodes(
        configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
        _ test: @Sendable (APIClient, APIClient) async throws -> Void
    ) async throws {
        try await StorageBackend.withTwoPostgresNodes { nodeA, nodeB in
            func configuration() -> AppConfiguration {
                var configuration = AppConfiguration()
                configuration.bcryptCost = 4
                configuration.runsMaintenance = false
                configuration.delivery.runsQueue = false
                configure(&configuration)
                return configuration
            }
            let clock = ManualClock(Date())
            let appA = try await buildApplication(
                configuration: configuration(), storage: nodeA, clock: clock, logger: StorageBackend.logger)
            let appB = try await buildApplication(
                configuration: configuration(), storage: nodeB, clock: clock, logger: StorageBackend.logger)
            try await appA.test(.router) { clientA in
                try await appB.test(.router) { clientB in
                    try await test(
                        APIClient(client: clientA, clock: clock, storage: nodeA),
                        APIClient(client: clientB, clock: clock, storage: nodeB))
                }
            }
        }
    }
}

/// A thin JSON layer over the test client, so tests read as API calls.
struct APIClient: Sendable {
    let client: any TestClientProtocol
    let clock: ManualClock
    /// For what only the command line may do (granting the admin role); tests otherwise stay on HTTP.
    let storage: any SpotterStorage
    /// The app's data directory (its local blob store lives there).
    var dataDirectory = ""

    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func call<Body: Encodable>(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, body: Body, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(body)
        return try await call(method, path, token: token, json: String(decoding: data, as: UTF8.self), headers: headers)
    }

    /// Signs a new user up and returns their tokens.
    func signup(_ username: String, password: String = "correct horse battery") async throws -> TokenResponse {
        let response = try await call(
            .post, "/api/v1/auth/signup",
            body: SignupRequest(email: "\(username)@example.com", username: username, password: password))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(TokenResponse.self)
    }

    func signin(
        _ login: String, password: String = "correct horse battery", headers: HTTPFields = [:]
    )
        async throws -> TestResponse
    {
        try await call(
            .post, "/api/v1/auth/signin", body: SigninRequest(login: login, password: password), headers: headers)
    }
}

struct UnexpectedStatus: Error, CustomStringConvertible {
    let response: TestResponse
    var description: String { "unexpected \(response.status): \(String(buffer: response.body))" }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(buffer: body))
    }

    /// The problem document of an error response; throws if the response isn't problem+json.
    func problem() throws -> Problem {
        guard headers[.contentType] == "application/problem+json" else { throw UnexpectedStatus(response: self) }
        return try decode(Problem.self)
    }

    var text: String { String(buffer: body) }
}
