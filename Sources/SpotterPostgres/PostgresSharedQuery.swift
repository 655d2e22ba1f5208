import PostgresNIO
import SpotterSQL

/// A value bound by name into SQL written for both databases (`SQLText`).
struct PostgresBind: Sendable {
    fileprivate let append: @Sendable (inout PostgresBindings) throws -> Void

    init<Value: PostgresThrowingDynamicTypeEncodable & Sendable>(_ value: Value) {
        append = { try $0.append(value) }
    }

    /// NULL, typed, when `value` is nil.
    init<Value: PostgresThrowingDynamicTypeEncodable & Sendable>(_ value: Value?) {
        append = { try $0.append(value) }
    }
}

/// Shared SQL named a bind it was not given, or was given one it does not use: a mistake in the code.
struct SharedSQLBindMismatch: Error, CustomStringConvertible {
    let missing: [String]
    let unused: [String]

    var description: String { "SQL binds missing: \(missing), given but unused: \(unused)" }
}

extension PostgresQuery {
    /// `sql` with its binds by name, in the order its placeholders number them (`$1` is `sql.binds[0]`).
    init(_ sql: RenderedSQL, _ binds: [String: PostgresBind]) throws {
        let missing = sql.binds.filter { binds[$0] == nil }
        let unused = binds.keys.filter { !sql.binds.contains($0) }.sorted()
        guard missing.isEmpty, unused.isEmpty else { throw SharedSQLBindMismatch(missing: missing, unused: unused) }
        var bindings = PostgresBindings(capacity: sql.binds.count)
        for name in sql.binds { try binds[name]?.append(&bindings) }
        self.init(unsafeSQL: sql.text, binds: bindings)
    }
}

/// A row's column is missing by name: the query's select list and the code reading it disagree.
struct MissingColumn: Error, CustomStringConvertible {
    let name: String

    var description: String { "The row has no column named \(name)." }
}

extension PostgresRandomAccessRow {
    /// The cell of the column `name`, or an error rather than PostgresNIO's crash when there is none.
    func cell(named name: String) throws -> PostgresCell {
        guard contains(name) else { throw MissingColumn(name: name) }
        return self[name]
    }
}
