import Logging
import PostgresNIO

/// A query's rows, read to the end before the query returns.
///
/// One connection runs one query at a time, and a unit of work runs all of its statements on one connection:
/// a statement sent while the rows of the one before are still streaming waits for rows nobody reads. Reading
/// them all first makes that mistake one the compiler refuses (nothing here hands out a `PostgresRowSequence`)
/// instead of a rule a comment asks every store to keep. Every statement of the stores returns a page at most
/// (a feed's 200 rows), so holding them costs what streaming them into an array already did.
///
/// It is an `AsyncSequence` of `PostgresRow`, so PostgresNIO's `decode(…)` reads it as it reads a stream.
struct PostgresRows: AsyncSequence, Sendable {
    typealias Element = PostgresRow

    let rows: [PostgresRow]

    init(_ stream: PostgresRowSequence) async throws { rows = try await stream.collect() }

    var first: PostgresRow? { rows.first }
    var isEmpty: Bool { rows.isEmpty }
    func collect() -> [PostgresRow] { rows }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: IndexingIterator<[PostgresRow]>
        mutating func next() async throws -> PostgresRow? { base.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: rows.makeIterator()) }
}

/// A transaction's connection, as a store's `withTransaction` body gets it: its statements answer with rows
/// read to the end (`PostgresRows`), so the next one can always be sent.
struct PostgresSession: Sendable {
    let connection: PostgresConnection

    @discardableResult
    func query(
        _ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line
    ) async throws -> PostgresRows {
        try await PostgresRows(connection.query(query, logger: logger, file: file, line: line))
    }
}
