import Foundation
import PostgresNIO

/// Parses the `SPOTTER_DATABASE_URL` form into a client configuration.
public enum PostgresURL {
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public static func configuration(from url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme)
        else { throw Invalid(description: "SPOTTER_DATABASE_URL must look like postgres://user:password@host:5432/db") }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "disable" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode: throw Invalid(description: "unsupported sslmode \(mode)")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1",
            port: components.port ?? 5432,
            username: components.percentEncodedUser?.removingPercentEncoding ?? "postgres",
            password: components.percentEncodedPassword?.removingPercentEncoding,
            database: database.isEmpty ? nil : database,
            tls: tls)
        // No JIT compilation: PostgreSQL compiles any plan it costs above 100,000, as it did the reminder
        // sweep's workout history and would a feed page whose LIMIT is bound. Spotter's queries read a few rows
        // by index, so compiling takes longer than running them and never pays for itself.
        configuration.options.additionalStartupParameters = [("jit", "off")]
        return configuration
    }
}
