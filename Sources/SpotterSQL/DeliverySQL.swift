/// The delivery queue's statements, on both databases. Each database claims jobs its own way (SQLite's one
/// writer reads the due jobs and then leases them; PostgreSQL leases them in one statement with
/// `FOR UPDATE SKIP LOCKED`, so two nodes never take the same job); the jobs they pick are `due`'s.
public enum DeliverySQL {
    /// The pending batch of `key` for a recipient and channel, to join. PostgreSQL locks it for the rest of the
    /// unit, so a runner cannot claim it meanwhile; SQLite's one writer needs no lock.
    public static let pendingBatch = SQLStatement(
        """
        SELECT id FROM delivery_jobs WHERE recipient_id = \(bind: "recipient") AND channel = \(bind: "channel")
        AND batch_key = \(bind: "key") AND state = 'pending'\(sqlite: "", postgres: " FOR UPDATE")
        """)

    public static let addItem = SQLStatement(
        """
        INSERT INTO delivery_items (job_id, notification_id, channel)
        VALUES (\(bind: "job"), \(bind: "notification"), \(bind: "channel")) ON CONFLICT DO NOTHING
        """)

    /// The jobs due by `now` (pending or retrying, or running on a lease that ran out), oldest first.
    static let due: SQLText = """
        SELECT id FROM delivery_jobs
        WHERE (state IN ('pending', 'retrying') AND run_at <= \(bind: "now"))
           OR (state = 'running' AND leased_until <= \(bind: "now"))
        ORDER BY run_at LIMIT \(bind: "limit")
        """

    /// SQLite's claim: `due`, read inside the writer that then leases each one.
    public static let dueJobs = SQLStatement(due)

    /// PostgreSQL's claim: `due`, leased in the same statement, skipping jobs another node is claiming.
    public static let claimDue = SQLStatement(
        """
        UPDATE delivery_jobs SET state = 'running', leased_until = \(bind: "leaseUntil")
        WHERE id IN (
            \(due) FOR UPDATE SKIP LOCKED)
        RETURNING id
        """)

    public static let job = SQLStatement(
        "SELECT id, recipient_id, channel, batch_key, run_at, attempts FROM delivery_jobs WHERE id = \(bind: "id")")

    public static let items = SQLStatement(
        "SELECT notification_id FROM delivery_items WHERE job_id = \(bind: "job") ORDER BY notification_id")

    public static let deliveredTargets = SQLStatement(
        "SELECT target FROM delivery_attempts WHERE job_id = \(bind: "job") AND status = 'delivered'")

    public static let recordAttempt = SQLStatement(
        """
        INSERT INTO delivery_attempts (job_id, target, status, detail, at)
        VALUES (\(bind: "job"), \(bind: "target"), \(bind: "status"), \(bind: "detail"), \(bind: "at"))
        """)

    public static let finish = SQLStatement(
        """
        UPDATE delivery_jobs SET state = \(bind: "state"), finished_at = \(bind: "at"), attempts = attempts + 1, \
        leased_until = NULL
        WHERE id = \(bind: "job")
        """)

    /// 'retrying', not 'pending': a new batch of the same key may already be pending beside it.
    public static let retry = SQLStatement(
        """
        UPDATE delivery_jobs SET state = 'retrying', run_at = \(bind: "runAt"), attempts = attempts + 1,
            last_error = \(bind: "error"), leased_until = NULL
        WHERE id = \(bind: "job")
        """)

    public static let pendingJobs = SQLStatement(
        """
        SELECT id FROM delivery_jobs WHERE recipient_id = \(bind: "recipient")
        AND state IN ('pending', 'retrying', 'running') ORDER BY run_at, id
        """)

    public static let attempts = SQLStatement(
        "SELECT job_id, target, status, detail, at FROM delivery_attempts WHERE job_id = \(bind: "job") ORDER BY id")
}
