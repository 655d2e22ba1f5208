import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterPostgres
import SpotterSQLite

/// The databases a test runs against: SQLite always, PostgreSQL when `SPOTTER_TEST_DATABASE_URL` is set
/// (the test command always sets it, so CI runs both).
public enum StorageBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite
    case postgres

    public static var available: [StorageBackend] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["SPOTTER_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var description: String { rawValue }

    /// A fresh, empty, migrated store: a new SQLite file, or a new PostgreSQL schema, removed afterwards.
    /// `body` gets the storage with its connection pool running.
    public func withStorage<T: Sendable>(_ body: @Sendable (any SpotterStorage) async throws -> T) async throws -> T {
        try await withUnmigratedStorage { storage in
            try await storage.migrate()
            return try await body(storage)
        }
    }

    /// Like `withStorage`, but `body` sees a storage whose pool runs and whose schema is empty.
    public func withUnmigratedStorage<T: Sendable>(
        _ body: @Sendable (any SpotterStorage) async throws -> T
    )
        async throws -> T
    {
        try await withIsolatedStorage { storage in
            if let postgres = storage as? PostgresStorage {
                return try await postgres.withRunning { try await body(storage) }
            }
            return try await body(storage)
        }
    }

    /// A fresh storage whose PostgreSQL pool is *not* running: for handing to the app, which runs it as a
    /// service.
    public func withIsolatedStorage<T: Sendable>(
        _ body: @Sendable (any SpotterStorage) async throws -> T
    )
        async throws -> T
    {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-test-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = try SQLiteStorage(path: folder.appendingPathComponent("test.sqlite").path)
            return try await body(storage)
        case .postgres:
            guard let url = Self.postgresURL else { throw MissingDatabase() }
            let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await ExtensionsOnce.shared.ensure(url)
            try await Self.admin(url) { try await $0.query("CREATE SCHEMA \(unescaped: schema)", logger: Self.logger) }
            do {
                let storage = try PostgresStorage(url: url, logger: Self.logger, eventChannel: "events_\(schema)") {
                    configuration in
                    configuration.options.additionalStartupParameters = [("search_path", "\(schema), public")]
                    configuration.options.maximumConnections = 8
                }
                let result = try await body(storage)
                try await Self.dropSchema(schema, url: url)
                return result
            } catch {
                try? await Self.dropSchema(schema, url: url)
                throw error
            }
        }
    }

    /// Two storages on one fresh PostgreSQL schema: two nodes of one community, for cross-node tests.
    public static func withTwoPostgresNodes<T: Sendable>(
        _ body: @Sendable (any SpotterStorage, any SpotterStorage) async throws -> T
    ) async throws -> T {
        guard let url = postgresURL else { throw MissingDatabase() }
        let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await ExtensionsOnce.shared.ensure(url)
        try await admin(url) { try await $0.query("CREATE SCHEMA \(unescaped: schema)", logger: logger) }
        func node() throws -> PostgresStorage {
            try PostgresStorage(url: url, logger: logger, eventChannel: "events_\(schema)") { configuration in
                configuration.options.additionalStartupParameters = [("search_path", "\(schema), public")]
                configuration.options.maximumConnections = 8
            }
        }
        do {
            let result = try await body(try node(), try node())
            try await dropSchema(schema, url: url)
            return result
        } catch {
            try? await dropSchema(schema, url: url)
            throw error
        }
    }

    public struct MissingDatabase: Error {}

    public static let logger: Logger = {
        var logger = Logger(label: "spotter-tests")
        logger.logLevel = .warning
        return logger
    }()

    private static func dropSchema(_ schema: String, url: String) async throws {
        try await admin(url) { try await $0.query("DROP SCHEMA \(unescaped: schema) CASCADE", logger: logger) }
    }

    fileprivate static func admin(_ url: String, _ body: (PostgresConnection) async throws -> Void) async throws {
        let client = try PostgresURL.configuration(from: url)
        let configuration = PostgresConnection.Configuration(
            host: client.host ?? "127.0.0.1", port: client.port ?? 5432, username: client.username,
            password: client.password, database: client.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            try await body(connection)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// Extensions are per database: pg_trgm is created once per test process in `public` (on every test's
/// search_path), as a production database has it, not inside one test's schema. Concurrent
/// `CREATE EXTENSION IF NOT EXISTS` can race, so one actor does it.
private actor ExtensionsOnce {
    static let shared = ExtensionsOnce()
    private var done = false

    func ensure(_ url: String) async throws {
        guard !done else { return }
        try await StorageBackend.admin(url) {
            try await $0.query("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public", logger: StorageBackend.logger)
        }
        done = true
    }
}
