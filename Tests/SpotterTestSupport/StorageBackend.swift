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

    /// Like `withStorage`, but only the migrations before `migration` are applied: the schema as an older
    /// Spotter left it, until `body` calls `migrate()`. For tests of what a migration does to existing data.
    public func withStorage<T: Sendable>(
        migratedBefore migration: String, _ body: @Sendable (any SpotterStorage) async throws -> T
    ) async throws -> T {
        try await withUnmigratedStorage { storage in
            switch storage {
            case let postgres as PostgresStorage: try await postgres.migrate(before: migration)
            case let sqlite as SQLiteStorage: try await sqlite.migrate(before: migration)
            default: preconditionFailure("a storage this support does not make: \(type(of: storage))")
            }
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
        try await withIsolatedStorage { storage, _ in try await body(storage) }
    }

    /// Where an isolated storage keeps its rows, for a test that reads them as an operator would (a dump, the
    /// file's bytes) rather than through the store.
    public enum Place: Sendable {
        /// The SQLite file (its `-wal` and `-shm` beside it).
        case sqliteFile(String)
        /// The test server's URL and the schema holding this storage's tables.
        case postgresSchema(url: String, schema: String)
    }

    /// Like `withIsolatedStorage`, telling `body` where the rows are.
    public func withIsolatedStorage<T: Sendable>(
        _ body: @Sendable (any SpotterStorage, Place) async throws -> T
    )
        async throws -> T
    {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-test-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("test.sqlite").path
            // Not durable: a test's database is thrown away, and a sync per commit across the suite's hundreds of
            // databases only queues on the disk (the whole suite timed out so). Spawned servers stay durable.
            return try await body(try SQLiteStorage(path: path, durable: false), .sqliteFile(path))
        case .postgres:
            return try await Self.withFreshSchema { url, schema in
                try await body(try Self.node(url, schema), .postgresSchema(url: url, schema: schema))
            }
        }
    }

    /// Two storages on one fresh PostgreSQL schema: two nodes of one community, for cross-node tests.
    public static func withTwoPostgresNodes<T: Sendable>(
        _ body: @Sendable (any SpotterStorage, any SpotterStorage) async throws -> T
    ) async throws -> T {
        try await withFreshSchema { url, schema in try await body(try node(url, schema), try node(url, schema)) }
    }

    /// A new schema on the test database for the length of `body`, dropped afterwards whatever happens.
    private static func withFreshSchema<T: Sendable>(
        _ body: (_ url: String, _ schema: String) async throws -> T
    ) async throws -> T {
        guard let url = postgresURL else { throw MissingDatabase() }
        return try await PostgresTestSlots.withSlot {
            let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await ExtensionsOnce.shared.ensure(url)
            try await admin(url) { try await $0.query("CREATE SCHEMA \(unescaped: schema)", logger: logger) }
            do {
                let result = try await body(url, schema)
                try await dropSchema(schema, url: url)
                return result
            } catch {
                try? await dropSchema(schema, url: url)
                throw error
            }
        }
    }

    /// A fresh, migrated PostgreSQL storage whose pool is sized as `spotter serve` sizes it, for
    /// `queryConnections` (the event listener's connection comes on top), running.
    public static func withPostgres<T: Sendable>(
        queryConnections: Int, _ body: @Sendable (PostgresStorage) async throws -> T
    ) async throws -> T {
        try await withFreshSchema { url, schema in
            let storage = try node(url, schema, connections: nil, queryConnections: queryConnections)
            return try await storage.withRunning {
                try await storage.migrate()
                return try await body(storage)
            }
        }
    }

    /// A storage that sees only `schema` (and `public`, for extensions) and has its own event channel, with
    /// `connections` in all when given.
    private static func node(
        _ url: String, _ schema: String, connections: Int? = 8, queryConnections: Int? = nil
    ) throws -> PostgresStorage {
        try PostgresStorage(
            url: url, logger: logger, eventChannel: "events_\(schema)", queryConnections: queryConnections
        ) { configuration in
            configuration.options.additionalStartupParameters.append(("search_path", "\(schema), public"))
            if let connections { configuration.options.maximumConnections = connections }
        }
    }

    /// A new, empty database on the test server for the length of `body`, dropped afterwards whatever
    /// happens: for a `spotter` process of its own, which migrates it. `body` gets its URL.
    public static func withFreshDatabase<T: Sendable>(_ body: (_ url: String) async throws -> T) async throws -> T {
        guard let url = postgresURL else { throw MissingDatabase() }
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let (address, query) = url.firstIndex(of: "?").map { (url[..<$0], url[$0...]) } ?? (url[...], "")
        let databaseURL = address[...address.lastIndex(of: "/")!] + name + query
        try await admin(url) { try await $0.query("CREATE DATABASE \(unescaped: name)", logger: logger) }
        let drop = {
            try await admin(url) {
                try await $0.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)", logger: logger)
            }
        }
        do {
            let result = try await body(String(databaseURL))
            try await drop()
            return result
        } catch {
            try? await drop()
            throw error
        }
    }

    /// A fresh, migrated PostgreSQL storage whose pool holds a single connection, running: what `body` asks
    /// of the pool afterwards sees that session's state (its prepared statements and their plans).
    public static func withOneConnectionPostgres<T: Sendable>(
        _ body: @Sendable (PostgresStorage) async throws -> T
    ) async throws -> T {
        try await withFreshSchema { url, schema in
            let storage = try node(url, schema, connections: 1)
            return try await storage.withRunning {
                try await storage.migrate()
                return try await body(storage)
            }
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

    static func admin(_ url: String, _ body: (PostgresConnection) async throws -> Void) async throws {
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
/// `CREATE EXTENSION IF NOT EXISTS` races (a unique violation in pg_extension), and an actor alone does not
/// serialize it: it is re-entered at the `await`. So every caller awaits the one task that does it.
private actor ExtensionsOnce {
    static let shared = ExtensionsOnce()
    private var creation: Task<Void, any Error>?

    func ensure(_ url: String) async throws {
        let creation =
            self.creation
            ?? Task {
                try await StorageBackend.admin(url) {
                    try await $0.query(
                        "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public", logger: StorageBackend.logger)
                }
            }
        self.creation = creation
        do {
            try await creation.value
        } catch {
            self.creation = nil  // let a later test try again rather than inherit one failure
            throw error
        }
    }
}

/// Swift Testing starts every test at once; unbounded, the PostgreSQL tests would open more connections than
/// the server allows (each holds an admin connection and a pool). At most `capacity` fresh schemas exist at a
/// time; the rest wait their turn. Callers never nest, so waiting cannot deadlock.
private actor PostgresTestSlots {
    static let shared = PostgresTestSlots(capacity: 12)
    private let capacity: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(capacity: Int) { self.capacity = capacity }

    func acquire() async {
        if inUse < capacity {
            inUse += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }  // the releaser hands its slot over
    }

    func release() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    static func withSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await shared.acquire()
        do {
            let result = try await body()
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }
}
