import GRDB

/// One change to the SQLite schema, never edited once released: a name (its date and what it does) and the
/// statements that make it. Each lives in a file of its own in this folder.
struct SQLiteMigration: Sendable {
    let name: String
    let migrate: @Sendable (Database) throws -> Void
}

/// The SQLite schema: every migration, in the order they run.
enum SQLiteMigrations {
    static let all: [SQLiteMigration] = [
        accountsAndTokens,
        idempotencyKeys,
        socialCore,
        search,
        templates,
        analytics,
        notifications,
        reminders,
        kudosInOrder,
        badgeCounts,
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

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in all { migrator.registerMigration(migration.name, migrate: migration.migrate) }
        return migrator
    }
}
