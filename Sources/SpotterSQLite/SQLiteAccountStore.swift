import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteAccountStore: AccountStore {
    let database: SQLiteDatabase

    static let columns = AccountSQL.columns.rendered(.sqlite).text

    func create(_ account: AccountRecord) async throws {
        try await mappingConstraintErrors {
            try await database.write { db in
                try db.execute(
                    cached: """
                        INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name,
                                           apple_subject, created_at, bio, avatar_url, units, time_zone, privacy, role)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        account.id.description, account.username, account.username.lowercased(), account.email,
                        account.email?.lowercased(), account.passwordHash, account.displayName, account.appleSubject,
                        account.createdAt.sqliteValue, account.profile.bio, account.profile.avatarURL,
                        account.profile.units.rawValue, account.profile.timeZone, account.profile.privacy.rawValue,
                        account.role.rawValue,
                    ])
            }
        }
    }

    func find(id: UserID) async throws -> AccountRecord? {
        try await fetch("WHERE id = ?", [id.description])
    }

    func find(ids: [UserID]) async throws -> [AccountRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in try Self.find(ids: ids, db) }
    }

    /// `find(ids:)` inside a read that is already open (a notification group's people).
    static func find(ids: [UserID], _ db: Database) throws -> [AccountRecord] {
        guard !ids.isEmpty else { return [] }
        return try Row.fetchAll(
            cached: db, sql: "SELECT \(Self.columns) FROM users WHERE id IN (SELECT value FROM json_each(?))",
            arguments: [SQLiteIDList.json(ids)]
        ).compactMap(Self.record)
    }

    func find(login: String) async throws -> AccountRecord? {
        let key = login.lowercased()
        return try await fetch("WHERE username_key = ? OR email_key = ? LIMIT 1", [key, key])
    }

    func find(username: String) async throws -> AccountRecord? {
        try await fetch("WHERE username_key = ?", [username.lowercased()])
    }

    func find(appleSubject: String) async throws -> AccountRecord? {
        try await fetch("WHERE apple_subject = ?", [appleSubject])
    }

    func setAppleSubject(_ subject: String, for id: UserID) async throws {
        try await mappingConstraintErrors {
            try await database.write { db in
                try db.execute(
                    cached: "UPDATE users SET apple_subject = ? WHERE id = ?", arguments: [subject, id.description])
            }
        }
    }

    func updateProfile(_ id: UserID, displayName: String, profile: ProfileFields) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    UPDATE users SET display_name = ?, bio = ?, avatar_url = ?, units = ?, time_zone = ?, privacy = ?
                    WHERE id = ?
                    """,
                arguments: [
                    displayName, profile.bio, profile.avatarURL, profile.units.rawValue, profile.timeZone,
                    profile.privacy.rawValue, id.description,
                ])
        }
    }

    func setSuspended(_ id: UserID, at date: Date?) async throws {
        try await set("suspended_at", date?.sqliteValue.databaseValue ?? .null, id)
    }

    func setRole(_ id: UserID, _ role: Role) async throws {
        try await set("role", role.rawValue.databaseValue, id)
    }

    func setPasswordHash(_ id: UserID, _ hash: String) async throws {
        try await set("password_hash", hash.databaseValue, id)
    }

    func setEmail(_ id: UserID, _ email: String) async throws {
        try await mappingConstraintErrors {
            try await database.write { db in
                try db.execute(
                    cached: "UPDATE users SET email = ?, email_key = ? WHERE id = ?",
                    arguments: [email, email.lowercased(), id.description])
            }
        }
    }

    func setFeatured(_ id: UserID, at date: Date?) async throws {
        try await set("featured_at", date?.sqliteValue.databaseValue ?? .null, id)
    }

    /// `column` is one of the literals above, never input.
    private func set(_ column: String, _ value: DatabaseValue, _ id: UserID) async throws {
        try await database.write { db in
            try db.execute(cached: "UPDATE users SET \(column) = ? WHERE id = ?", arguments: [value, id.description])
        }
    }

    private func fetch(_ clause: String, _ arguments: StatementArguments) async throws -> AccountRecord? {
        try await database.read { db in
            try Row.fetchOne(cached: db, sql: "SELECT \(Self.columns) FROM users \(clause)", arguments: arguments)
                .flatMap(Self.record)
        }
    }

    /// Reads the columns of `columns` from a row, starting at `offset`.
    static func record(_ row: Row) -> AccountRecord? { record(row, offset: 0) }

    static func record(_ row: Row, offset: Int) -> AccountRecord? {
        guard let id = UserID(row[offset] as String) else { return nil }
        let profile = ProfileFields(
            bio: row[offset + 7], avatarURL: row[offset + 8], units: Units(rawValue: row[offset + 9]) ?? .kg,
            timeZone: row[offset + 10], privacy: Privacy(rawValue: row[offset + 11]) ?? .private)
        return AccountRecord(
            id: id, username: row[offset + 1], email: row[offset + 2], passwordHash: row[offset + 3],
            displayName: row[offset + 4], appleSubject: row[offset + 5],
            createdAt: Date(sqliteValue: row[offset + 6]), profile: profile,
            role: Role(rawValue: row[offset + 12]) ?? .member,
            suspendedAt: (row[offset + 13] as Double?).map(Date.init(sqliteValue:)),
            featuredAt: (row[offset + 14] as Double?).map(Date.init(sqliteValue:)))
    }
}
