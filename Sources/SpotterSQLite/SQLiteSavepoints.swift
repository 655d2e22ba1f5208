import GRDB
import Synchronization

/// The savepoints a unit of work opens on the writer, innermost last: one for the unit in its batch, one for
/// each `storage.write` inside it, one for each store call that writes. Each may be undone alone.
///
/// A savepoint opened when nothing has changed since the one before it would undo exactly what that one undoes,
/// so it shares it instead of sending a `SAVEPOINT` of its own: undoing it rolls back to the shared one (which
/// stays open, as `ROLLBACK TO` leaves it), and ending it sends nothing. A keyed kudos nests about eight of
/// them, of which three follow a change: the other five were ten statements of transaction control per
/// request, each a cached statement's step and reset. "Nothing has changed" is SQLite's own count of rows changed on the
/// connection (`sqlite3_total_changes`, triggers included); a rollback does not lower it, so after one the
/// next savepoint is always opened afresh. All carry one name: `ROLLBACK TO` and `RELEASE` reach the innermost
/// opened one, which the stack's order makes the right one.
///
/// Only the unit holding the writer touches it (`SQLiteWriterBatches` hands the writer to one unit at a time),
/// so its lock is never contended.
final class SQLiteSavepoints: Sendable {
    private struct Mark {
        /// `sqlite3_total_changes` when it was opened.
        let changes: Int
        /// Whether it sent a `SAVEPOINT` of its own, or shares the one below it.
        let opened: Bool
    }

    private let marks = Mutex<[Mark]>([])

    /// The unit's own savepoint in the batch: always opened, as there is none below it to share (undoing the
    /// unit must leave the batch's transaction and its earlier units standing). Clears what a unit that lost
    /// its batch left behind.
    func openUnit(_ db: Database) throws {
        marks.withLock { $0.removeAll(keepingCapacity: true) }
        try db.control("SAVEPOINT spotter")
        marks.withLock { $0.append(Mark(changes: db.totalChangesCount, opened: true)) }
    }

    func open(_ db: Database) throws {
        let changes = db.totalChangesCount
        let shares = marks.withLock { marks in marks.last.map { $0.changes == changes } ?? false }
        if !shares { try db.control("SAVEPOINT spotter") }
        marks.withLock { $0.append(Mark(changes: changes, opened: !shares)) }
    }

    /// Ends the innermost savepoint, undoing what was done since it opened unless `keeping`.
    func close(_ db: Database, keeping: Bool) throws {
        guard let mark = marks.withLock({ $0.popLast() }) else { return }
        var failure: (any Error)?
        if !keeping {
            do { try db.control("ROLLBACK TO SAVEPOINT spotter") } catch { failure = error }
        }
        if mark.opened { try db.control("RELEASE SAVEPOINT spotter") }
        if let failure { throw failure }
    }
}
