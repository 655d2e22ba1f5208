import GRDB
import PostgresNIO

extension StorageBackend.Place {
    /// Every table's rows as text, in a fixed order, read beside the app as an operator would: what a test
    /// compares before and after a request to show that it left nothing behind (no row added, changed or
    /// removed). For the small databases of tests only.
    public func tableContents() async throws -> [String: String] {
        switch self {
        case .sqliteFile(let path):
            var configuration = Configuration()
            configuration.readonly = true
            let database = try DatabaseQueue(path: path, configuration: configuration)
            return try await database.read { db in
                var contents: [String: String] = [:]
                for table in try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                {
                    let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { row in
                        row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: ",")
                    }
                    contents[table] = rows.sorted().joined(separator: "\n")
                }
                return contents
            }
        case .postgresSchema(let url, let schema):
            var contents: [String: String] = [:]
            try await StorageBackend.admin(url) { connection in
                var tables: [String] = []
                let rows = try await connection.query(
                    """
                    SELECT table_name FROM information_schema.tables
                    WHERE table_schema = \(schema) AND table_type = 'BASE TABLE'
                    """, logger: StorageBackend.logger)
                for try await table in rows.decode(String.self) { tables.append(table) }
                for table in tables {
                    let name = "\(schema).\"\(table)\""
                    let text = try await connection.query(
                        "SELECT coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '') FROM \(unescaped: name) t",
                        logger: StorageBackend.logger)
                    for try await value in text.decode(String.self) { contents[table] = value }
                }
            }
            return contents
        }
    }
}
