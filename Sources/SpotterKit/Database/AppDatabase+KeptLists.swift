import Foundation
import GRDB

/// Lists kept in the server's order, each item a JSON value with its id, in a table of `(list, id, position,
/// json)`: the Parent Zone's children (`kept_children`) and compose's templates (`kept_templates`).
extension AppDatabase {
    /// Replaces what `list` held in `table` with `items`, in their order.
    func replaceList<Item: Encodable>(
        _ table: String, _ list: String, with items: [Item], id: (Item) -> String
    ) async throws {
        let rows = try items.map { (id($0), try Self.json($0)) }
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM \(table) WHERE list = ?", arguments: [list])
            for (position, (id, json)) in rows.enumerated() {
                try db.execute(
                    sql: "INSERT INTO \(table) (list, id, position, json) VALUES (?, ?, ?, ?)",
                    arguments: [list, id, position, json])
            }
        }
    }

    /// What `list` holds in `table`, in order; an item that no longer decodes is left out.
    func keptList<Item: Decodable>(_ table: String, _ list: String, as type: Item.Type) async throws -> [Item] {
        let rows = try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT json FROM \(table) WHERE list = ? ORDER BY position", arguments: [list])
        }
        return rows.compactMap { try? Self.decode(Item.self, $0) }
    }
}
