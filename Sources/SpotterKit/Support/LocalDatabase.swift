import GRDB

/// Opens one of SpotterKit's SQLite files (outbox, caches, analytics), or an in-memory database when `path`
/// is nil. A second process or instance on the same file (an app extension, a relaunch) waits its turn for
/// a few seconds instead of failing with "database is locked".
func openLocalDatabase(_ path: String?) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    guard let path else { return try DatabaseQueue(configuration: configuration) }
    return try DatabaseQueue(path: path, configuration: configuration)
}
