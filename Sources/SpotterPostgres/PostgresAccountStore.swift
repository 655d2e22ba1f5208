import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresAccountStore: AccountStore {
    let database: PostgresDatabase
    let logger: Logger

    static let columns = AccountSQL.columns.rendered(.postgres).text

    func create(_ account: AccountRecord) async throws {
        try await mappingConstraintErrors {
            try await database.guardedQuery(
                PostgresQuery(
                    AccountSQL.create.postgres,
                    [
                        "id": PostgresBind(account.id.rawValue), "username": PostgresBind(account.username),
                        "usernameKey": PostgresBind(account.username.lowercased()),
                        "email": PostgresBind(account.email),
                        "emailKey": PostgresBind(account.email?.lowercased()),
                        "passwordHash": PostgresBind(account.passwordHash),
                        "displayName": PostgresBind(account.displayName),
                        "appleSubject": PostgresBind(account.appleSubject),
                        "createdAt": PostgresBind(account.createdAt),
                        "bio": PostgresBind(account.profile.bio), "avatarURL": PostgresBind(account.profile.avatarURL),
                        "units": PostgresBind(account.profile.units.rawValue),
                        "timeZone": PostgresBind(account.profile.timeZone),
                        "privacy": PostgresBind(account.profile.privacy.rawValue),
                        "role": PostgresBind(account.role.rawValue),
                    ]), logger: logger)
        }
    }

    func find(id: UserID) async throws -> AccountRecord? {
        try await fetchOne(PostgresQuery(AccountSQL.findByID.postgres, ["id": PostgresBind(id.rawValue)]))
    }

    func find(ids: [UserID]) async throws -> [AccountRecord] {
        guard !ids.isEmpty else { return [] }
        var accounts: [AccountRecord] = []
        let query = try PostgresQuery(AccountSQL.findByIDs.postgres, ["ids": PostgresBind(ids.map(\.rawValue))])
        for try await row in try await database.query(query, logger: logger) {
            accounts.append(try Self.record(row.makeRandomAccess(), offset: 0))
        }
        return accounts
    }

    func find(login: String) async throws -> AccountRecord? {
        let key = login.lowercased()
        return try await fetchOne(PostgresQuery(AccountSQL.findByLogin.postgres, ["key": PostgresBind(key)]))
    }

    func find(username: String) async throws -> AccountRecord? {
        try await fetchOne(
            PostgresQuery(AccountSQL.findByUsername.postgres, ["key": PostgresBind(username.lowercased())]))
    }

    func find(appleSubject: String) async throws -> AccountRecord? {
        try await fetchOne(
            PostgresQuery(AccountSQL.findByAppleSubject.postgres, ["subject": PostgresBind(appleSubject)]))
    }

    func setAppleSubject(_ subject: String, for id: UserID) async throws {
        try await mappingConstraintErrors {
            try await database.guardedQuery(
                PostgresQuery(
                    AccountSQL.setAppleSubject.postgres,
                    ["subject": PostgresBind(subject), "id": PostgresBind(id.rawValue)]),
                logger: logger)
        }
    }

    func updateProfile(_ id: UserID, displayName: String, profile: ProfileFields) async throws {
        try await database.query(
            PostgresQuery(
                AccountSQL.updateProfile.postgres,
                [
                    "displayName": PostgresBind(displayName), "bio": PostgresBind(profile.bio),
                    "avatarURL": PostgresBind(profile.avatarURL), "units": PostgresBind(profile.units.rawValue),
                    "timeZone": PostgresBind(profile.timeZone), "privacy": PostgresBind(profile.privacy.rawValue),
                    "id": PostgresBind(id.rawValue),
                ]), logger: logger)
    }

    func setSuspended(_ id: UserID, at date: Date?) async throws {
        try await set(AccountSQL.setSuspended, PostgresBind(date), id)
    }

    func setRole(_ id: UserID, _ role: Role) async throws {
        try await set(AccountSQL.setRole, PostgresBind(role.rawValue), id)
    }

    func setPasswordHash(_ id: UserID, _ hash: String) async throws {
        try await set(AccountSQL.setPasswordHash, PostgresBind(hash), id)
    }

    func setEmail(_ id: UserID, _ email: String) async throws {
        try await mappingConstraintErrors {
            try await database.guardedQuery(
                PostgresQuery(
                    AccountSQL.setEmail.postgres,
                    [
                        "email": PostgresBind(email), "emailKey": PostgresBind(email.lowercased()),
                        "id": PostgresBind(id.rawValue),
                    ]), logger: logger)
        }
    }

    func setFeatured(_ id: UserID, at date: Date?) async throws {
        try await set(AccountSQL.setFeatured, PostgresBind(date), id)
    }

    private func set(_ statement: SQLStatement, _ value: PostgresBind, _ id: UserID) async throws {
        try await database.query(
            PostgresQuery(statement.postgres, ["value": value, "id": PostgresBind(id.rawValue)]), logger: logger)
    }

    private func fetchOne(_ query: PostgresQuery) async throws -> AccountRecord? {
        for try await row in try await database.query(query, logger: logger) {
            return try Self.record(row.makeRandomAccess(), offset: 0)
        }
        return nil
    }

    /// Reads the columns of `columns` from a row, starting at `offset`.
    static func record(_ row: PostgresRandomAccessRow, offset: Int) throws -> AccountRecord {
        func value<T: PostgresDecodable>(_ index: Int, _: T.Type = T.self) throws -> T {
            try row[offset + index].decode(T.self)
        }
        let profile = ProfileFields(
            bio: try value(7), avatarURL: try value(8), units: Units(rawValue: try value(9)) ?? .kg,
            timeZone: try value(10), privacy: Privacy(rawValue: try value(11)) ?? .private)
        return AccountRecord(
            id: UserID(rawValue: try value(0)), username: try value(1), email: try value(2),
            passwordHash: try value(3), displayName: try value(4), appleSubject: try value(5),
            createdAt: try value(6), profile: profile, role: Role(rawValue: try value(12)) ?? .member,
            suspendedAt: try value(13), featuredAt: try value(14))
    }
}
