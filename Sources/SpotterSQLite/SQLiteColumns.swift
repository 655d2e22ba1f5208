import GRDB

/// The columns a statement selects, named: the select list is written from the cases, in their order, and a
/// row is read by case (`row[Column.userID.index]`), so the list and the reads cannot drift apart. Reading by
/// GRDB's column names instead would lowercase and hash a name on every read of a hot row; a case is its
/// position, known when the code compiles.
protocol SQLiteColumns: CaseIterable, RawRepresentable<Int> {
    /// The SQL the select list writes for this column.
    var sql: String { get }
}

extension SQLiteColumns {
    /// The select list, every column in case order.
    static var selectList: String { allCases.map(\.sql).joined(separator: ", ") }

    static var count: Int { allCases.count }

    /// Where the column stands in a row that starts with this list (GRDB reads rows by position).
    var index: Int { rawValue }
}
