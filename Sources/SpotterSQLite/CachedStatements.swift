import GRDB

// The stores' queries run through statements prepared once per connection and kept.
//
// Preparing is most of what a small query costs: SQLite parses and plans the text, and GRDB's authorizer
// works out which tables it touches, on every run of a statement that is not kept. Every statement text
// below is fixed or made from a handful of fixed fragments, with values always bound, so each connection keeps
// a few dozen.

extension Row {
    static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(cached db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible {
    static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(cached db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    static func fetchSet(cached db: Database, sql: String, arguments: StatementArguments = []) throws -> Set<Self> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension Database {
    /// Runs one statement (not several: a cached statement is a single one).
    func execute(cached sql: String, arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
