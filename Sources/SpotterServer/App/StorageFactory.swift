import Foundation
import Logging
import SpotterCore
import SpotterPostgres
import SpotterSQLite

/// Opens the storage the configuration names: PostgreSQL when a database URL is set, else SQLite in the data
/// directory (created if missing).
public enum StorageFactory {
    public static func open(_ configuration: AppConfiguration, logger: Logger) throws -> any SpotterStorage {
        if let url = configuration.databaseURL, !url.isEmpty {
            return try PostgresStorage(
                url: url, logger: logger, queryConnections: configuration.databaseConnections)
        }
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        return try SQLiteStorage(path: configuration.sqlitePath)
    }

    /// Runs the migrations alone (`spotter migrate`).
    public static func migrate(_ storage: any SpotterStorage) async throws {
        try await storage.withRunning { try await storage.migrate() }
    }
}
