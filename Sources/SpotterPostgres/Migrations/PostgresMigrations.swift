import Logging
import PostgresNIO

/// One change to the PostgreSQL schema, never edited once released: a name (its date and what it does) and its
/// statements (the extended protocol takes one statement per query). Each lives in a file of its own here.
struct PostgresMigration: Sendable {
    let name: String
    let statements: [PostgresQuery]
}

/// The PostgreSQL schema: every migration, in the order they run.
enum PostgresMigrations {
    static let all: [PostgresMigration] = [
        accountsAndTokens,
        idempotencyKeys,
        socialCore,
        search,
        templates,
        analytics,
        notifications,
        reminders,
        kudosInOrder,
        kudosCounted,
        commentsCounted,
        peopleCounted,
        mutesByMuted,
        postsSearchWorkouts,
        accountLinks,
        loginDevices,
        commentsEditedAt,
        media,
        nostr,
        groups,
        children,
        avatarSubjects,
        e2e,
        e2eDeviceRequests,
        inApp,
    ]

    /// Applies what is missing, in one transaction under an advisory lock, so nodes starting together
    /// migrate once.
    static func run(
        on client: PostgresClient, logger: Logger, before stop: String? = nil
    ) async throws {
        if let stop { precondition(all.contains { $0.name == stop }, "no PostgreSQL migration is named \(stop)") }
        let wanted = all.prefix { $0.name != stop }
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(74210001)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS spotter_migrations (
                    name TEXT PRIMARY KEY,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM spotter_migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            for migration in wanted where !applied.contains(migration.name) {
                logger.info("applying migration", metadata: ["migration": "\(migration.name)"])
                for statement in migration.statements {
                    try await connection.query(statement, logger: logger)
                }
                try await connection.query(
                    "INSERT INTO spotter_migrations (name) VALUES (\(migration.name))", logger: logger)
            }
        }
    }
}
