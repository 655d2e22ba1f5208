import ArgumentParser
import Foundation
import Logging
import NIOCore
import SpotterCore
import SpotterServer

/// Options shared by `serve` and `migrate`. Each flag falls back to an environment variable, then a default,
/// so a container can be configured without a command line.
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on (env SPOTTER_HOST).") var host: String?
    @Option(help: "Port to listen on (env SPOTTER_PORT).") var port: Int?
    @Option(help: "Folder for the SQLite database (env SPOTTER_DATA_DIR).") var dataDir: String?
    @Option(help: "Log level: trace, debug, info, notice, warning, error (env SPOTTER_LOG_LEVEL).") var logLevel:
        String?

    func configuration(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws
        -> AppConfiguration
    {
        var configuration = AppConfiguration()
        configuration.host = host ?? environment["SPOTTER_HOST"] ?? configuration.host
        if let port = try port ?? environment["SPOTTER_PORT"].map({ try Self.integer($0, "SPOTTER_PORT") }) {
            configuration.port = port
        }
        configuration.dataDirectory = dataDir ?? environment["SPOTTER_DATA_DIR"] ?? configuration.dataDirectory
        configuration.databaseURL = environment["SPOTTER_DATABASE_URL"]
        if let connections = environment["SPOTTER_DATABASE_CONNECTIONS"] {
            let value = try Self.integer(connections, "SPOTTER_DATABASE_CONNECTIONS")
            guard (1...500).contains(value) else {
                throw ValidationError("SPOTTER_DATABASE_CONNECTIONS must be 1 to 500")
            }
            configuration.databaseConnections = value
        }
        if let level = logLevel ?? environment["SPOTTER_LOG_LEVEL"] {
            guard let parsed = Logger.Level(rawValue: level) else {
                throw ValidationError("unknown log level \(level)")
            }
            configuration.logLevel = parsed
        }
        if let cost = environment["SPOTTER_BCRYPT_COST"] {
            let value = try Self.integer(cost, "SPOTTER_BCRYPT_COST")
            guard (4...31).contains(value) else { throw ValidationError("SPOTTER_BCRYPT_COST must be 4 to 31") }
            configuration.bcryptCost = UInt8(value)
        }
        if let limit = environment["SPOTTER_NEW_ACCOUNT_POSTS_PER_HOUR"] {
            let value = try Self.integer(limit, "SPOTTER_NEW_ACCOUNT_POSTS_PER_HOUR")
            guard value >= 0 else { throw ValidationError("SPOTTER_NEW_ACCOUNT_POSTS_PER_HOUR must be 0 or more") }
            // 0 turns the rule off, for a community that vets its members (and tests that post a lot).
            if value == 0 {
                configuration.postRules.newAccountAge = 0
            } else {
                configuration.postRules.newAccountPostsPerHour = value
            }
        }
        configuration.appleClientID = environment["SPOTTER_APPLE_CLIENT_ID"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.appleJWKSURL = environment["SPOTTER_APPLE_JWKS_URL"] ?? configuration.appleJWKSURL
        configuration.trustForwardedFor = ["1", "true", "yes"].contains(environment["SPOTTER_TRUST_PROXY"] ?? "")
        configuration.secureCookies = ["1", "true", "yes"].contains(environment["SPOTTER_SECURE_COOKIES"] ?? "")
        configuration.publicURL = environment["SPOTTER_PUBLIC_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if let signup = environment["SPOTTER_NOSTR_SIGNUP"] {
            guard let value = NostrAccountService.Signup(rawValue: signup) else {
                throw ValidationError("SPOTTER_NOSTR_SIGNUP must be open or closed")
            }
            configuration.nostrSignup = value
        }
        try DeliveryOptions.apply(environment, to: &configuration.delivery)
        try applyConnectionLimits(environment, to: &configuration)
        do {
            configuration.mediaStorage = try MediaStorageConfiguration.from(environment: environment)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        return configuration
    }

    func logger(_ configuration: AppConfiguration) -> Logger {
        var logger = Logger(label: "spotter", factory: LineLogHandler.standardOutput)
        logger.logLevel = configuration.logLevel
        return logger
    }

    /// `SPOTTER_IDLE_TIMEOUT`, `_HEADER_TIMEOUT`, `_BODY_TIMEOUT` (seconds), `SPOTTER_MAX_CONNECTIONS` and
    /// `SPOTTER_MAX_CONNECTIONS_PER_ADDRESS`. Behind a proxy every connection comes from its one address, so
    /// the per-address cap is off there unless it is set.
    private func applyConnectionLimits(
        _ environment: [String: String], to configuration: inout AppConfiguration
    )
        throws
    {
        func seconds(_ name: String) throws -> TimeAmount? {
            guard let text = environment[name] else { return nil }
            let value = try Self.integer(text, name)
            guard (1...86_400).contains(value) else { throw ValidationError("\(name) must be 1 to 86400 seconds") }
            return .seconds(Int64(value))
        }
        var limits = configuration.connections
        limits.idleTimeout = try seconds("SPOTTER_IDLE_TIMEOUT") ?? limits.idleTimeout
        limits.headerTimeout = try seconds("SPOTTER_HEADER_TIMEOUT") ?? limits.headerTimeout
        limits.bodyTimeout = try seconds("SPOTTER_BODY_TIMEOUT") ?? limits.bodyTimeout
        if let text = environment["SPOTTER_MAX_CONNECTIONS_PER_ADDRESS"] {
            let value = try Self.integer(text, "SPOTTER_MAX_CONNECTIONS_PER_ADDRESS")
            guard value >= 0 else { throw ValidationError("SPOTTER_MAX_CONNECTIONS_PER_ADDRESS must be 0 or more") }
            limits.maxConnectionsPerAddress = value
        } else if configuration.trustForwardedFor {
            limits.maxConnectionsPerAddress = 0
        }
        if let text = environment["SPOTTER_MAX_CONNECTIONS"] {
            let value = try Self.integer(text, "SPOTTER_MAX_CONNECTIONS")
            guard value >= 1 else { throw ValidationError("SPOTTER_MAX_CONNECTIONS must be 1 or more") }
            limits.maxConnections = value
        }
        configuration.connections = limits
    }

    private static func integer(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("\(name) must be a number") }
        return value
    }
}
