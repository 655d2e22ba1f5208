import GRDB

extension DatabasePool {
    /// A read on the writer's connection, for reads that follow a write on the same path (a new
    /// notification's recipient rules, the hub rendering it).
    ///
    /// In WAL mode SQLite drops a reader connection's whole page cache whenever the file changed since its
    /// last read, so under a steady stream of writes every pool read starts cold and re-reads each page with
    /// `pread(2)`, a copy from the kernel for every page. The writer's connection keeps its cache, since the
    /// changes are its own, so reads that follow a write find their pages there.
    ///
    /// No transaction is opened, so the writer's lock is not taken; the statements still see one state of
    /// the file, because nothing else can write while this runs on the writer's queue. The price is that
    /// such a read waits for queued writes and holds later ones back, so it is only for short reads that
    /// sit between writes anyway, never for feeds or searches.
    func readOnWriter<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction(body)
    }
}
