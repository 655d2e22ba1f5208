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
                    cached: AccountSQL.create.sqlite,
                    arguments: [
                        "id": account.id.description, "username": account.username,
                        "usernameKey": account.username.lowercased(), "email": account.email,
                        "emailKey": account.email?.lowercased(), "passwordHash": account.passwordHash,
                        "displayName": account.displayName, "appleSubject": account.appleSubject,
                        "createdAt": account.createdAt.sqliteValue, "bio": account.profile.bio,
                        "avatarURL": account.profile.avatarURL, "units": account.profile.units.rawValue,
                        "timeZone": account.profile.timeZone, "privacy": account.profile.privacy.rawValue,
                        "role": account.role.rawValue,
                    ])
            }
        }
    }

    func find(id: UserID) async throws -> AccountRecord? {
        try await fetch(AccountSQL.findByID, ["id": id.description])
    }

    func find(ids: [UserID]) async throws -> [AccountRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in try Self.find(ids: ids, db) }
    }

    /// `find(ids:)` inside a read that is already open (a notification group's people).
    static func find(ids: [UserID], _ db: Database) throws -> [AccountRecord] {
        guard !ids.isEmpty else { return [] }
        return try Row.fetchAll(
            cached: db, sql: AccountSQL.findByIDs.sqlite, arguments: ["ids": SQLiteIDList.json(ids)]
        ).compactMap(Self.record)
    }

    func find(login: String) async throws -> AccountRecord? {
        let key = login.lowercased()
        return try await fetch(AccountSQL.findByLogin, ["key": key])
    }

    func find(username: String) async throws -> AccountRecord? {
        try await fetch(AccountSQL.findByUsername, ["key": username.lowercased()])
    }

    func find(appleSubject: String) async throws -> AccountRecord? {
        try await fetch(AccountSQL.findByAppleSubject, ["subject": appleSubject])
    }

    func setAppleSubject(_ subject: String, for id: UserID) async throws {
        try await mappingConstraintErrors {
            try await database.write { db in
                try db.execute(
                    cached: AccountSQL.setAppleSubject.sqlite, arguments: ["subject": subject, "id": id.description])
            }
        }
    }

    func updateProfile(_ id: UserID, displayName: String, profile: ProfileFields) async throws {
        try await database.write { db in
            try db.execute(
                cached: AccountSQL.updateProfile.sqlite,
                arguments: [
                    "displayName": displayName, "bio": profile.bio, "avatarURL": profile.avatarURL,
                    "units": profile.units.rawValue, "timeZone": profile.timeZone, "privacy": profile.privacy.rawValue,
                    "id": id.description,
                ])
        }
    }

    func setSuspended(_ id: UserID, at date: Date?) async throws {
        try await set(AccountSQL.setSuspended, date?.sqliteValue.databaseValue ?? .null, id)
    }

    func setRole(_ id: UserID, _ role: Role) async throws {
        try await set(AccountSQL.setRole, role.rawValue.databaseValue, id)
    }

    func setPasswordHash(_ id: UserID, _ hash: String) async throws {
        try await set(AccountSQL.setPasswordHash, hash.databaseValue, id)
    }

    func setEmail(_ id: UserID, _ email: String) async throws {
        try await mappingConstraintErrors {
            try await database.write { db in
                try db.execute(
                    cached: AccountSQL.setEmail.sqlite,
                    arguments: ["email": email, "emailKey": email.lowercased(), "id": id.description])
            }
        }
    }

    func setFeatured(_ id: UserID, at date: Date?) async throws {
        try await set(AccountSQL.setFeatured, date?.sqliteValue.databaseValue ?? .null, id)
    }

    private func set(_ statement: SQLStatement, _ value: DatabaseValue, _ id: UserID) async throws {
        try await database.write { db in
            try db.execute(cached: statement.sqlite, arguments: ["value": value, "id": id.description])
        }
    }

    private func fetch(_ statement: SQLStatement, _ arguments: StatementArguments) async throws -> AccountRecord? {
        try await database.read { db in
            try Row.fetchOne(cached: db, sql: statement.sqlite, arguments: arguments).flatMap(Self.record)
        }
    }

    /// Reads the columns of `columns` from a row, starting at `offset`.
    static func record(_ row: Row) -> AccountRecord? { record(row, offset: 0) }

    static func record(_ row: some SQLiteRowValues, offset: Int) -> AccountRecord? {
        guard let id = UserID(row.text(offset) as String) else { return nil }
        let profile = ProfileFields(
            bio: row.text(offset + 7), avatarURL: row.text(offset + 8),
            units: Units(rawValue: row.text(offset + 9)) ?? .kg, timeZone: row.text(offset + 10),
            privacy: Privacy(rawValue: row.text(offset + 11)) ?? .private)
        return AccountRecord(
            id: id, username: row.text(offset + 1), email: row.text(offset + 2), passwordHash: row.text(offset + 3),
            displayName: row.text(offset + 4), appleSubject: row.text(offset + 5),
            createdAt: Date(sqliteValue: row.real(offset + 6)), profile: profile,
            role: Role(rawValue: row.text(offset + 12)) ?? .member,
            suspendedAt: (row.real(offset + 13) as Double?).map(Date.init(sqliteValue:)),
            featuredAt: (row.real(offset + 14) as Double?).map(Date.init(sqliteValue:)))
    }
}
