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
                """
                INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name,
                                   apple_subject, created_at, bio, avatar_url, units, time_zone, privacy, role)
                VALUES (\(account.id.rawValue), \(account.username), \(account.username.lowercased()),
                        \(account.email), \(account.email?.lowercased()), \(account.passwordHash),
                        \(account.displayName), \(account.appleSubject), \(account.createdAt),
                        \(account.profile.bio), \(account.profile.avatarURL), \(account.profile.units.rawValue),
                        \(account.profile.timeZone), \(account.profile.privacy.rawValue), \(account.role.rawValue))
                """, logger: logger)
        }
    }

    func find(id: UserID) async throws -> AccountRecord? {
        try await fetchOne("SELECT \(unescaped: Self.columns) FROM users WHERE id = \(id.rawValue)")
    }

    func find(ids: [UserID]) async throws -> [AccountRecord] {
        guard !ids.isEmpty else { return [] }
        var accounts: [AccountRecord] = []
        let query: PostgresQuery =
            "SELECT \(unescaped: Self.columns) FROM users WHERE id = ANY(\(ids.map(\.rawValue)))"
        for try await row in try await database.query(query, logger: logger) {
            accounts.append(try Self.record(row.makeRandomAccess(), offset: 0))
        }
        return accounts
    }

    func find(login: String) async throws -> AccountRecord? {
        let key = login.lowercased()
        return try await fetchOne(
            "SELECT \(unescaped: Self.columns) FROM users WHERE username_key = \(key) OR email_key = \(key) LIMIT 1")
    }

    func find(username: String) async throws -> AccountRecord? {
        try await fetchOne("SELECT \(unescaped: Self.columns) FROM users WHERE username_key = \(username.lowercased())")
    }

    func find(appleSubject: String) async throws -> AccountRecord? {
        try await fetchOne("SELECT \(unescaped: Self.columns) FROM users WHERE apple_subject = \(appleSubject)")
    }

    func setAppleSubject(_ subject: String, for id: UserID) async throws {
        try await mappingConstraintErrors {
            try await database.guardedQuery(
                "UPDATE users SET apple_subject = \(subject) WHERE id = \(id.rawValue)", logger: logger)
        }
    }

    func updateProfile(_ id: UserID, displayName: String, profile: ProfileFields) async throws {
        try await database.query(
            """
            UPDATE users SET display_name = \(displayName), bio = \(profile.bio), avatar_url = \(profile.avatarURL),
                units = \(profile.units.rawValue), time_zone = \(profile.timeZone),
                privacy = \(profile.privacy.rawValue)
            WHERE id = \(id.rawValue)
            """, logger: logger)
    }

    func setSuspended(_ id: UserID, at date: Date?) async throws {
        try await database.query("UPDATE users SET suspended_at = \(date) WHERE id = \(id.rawValue)", logger: logger)
    }

    func setRole(_ id: UserID, _ role: Role) async throws {
        try await database.query("UPDATE users SET role = \(role.rawValue) WHERE id = \(id.rawValue)", logger: logger)
    }

    func setPasswordHash(_ id: UserID, _ hash: String) async throws {
        try await database.query("UPDATE users SET password_hash = \(hash) WHERE id = \(id.rawValue)", logger: logger)
    }

    func setEmail(_ id: UserID, _ email: String) async throws {
        try await mappingConstraintErrors {
            try await database.guardedQuery(
                "UPDATE users SET email = \(email), email_key = \(email.lowercased()) WHERE id = \(id.rawValue)",
                logger: logger)
        }
    }

    func setFeatured(_ id: UserID, at date: Date?) async throws {
        try await database.query("UPDATE users SET featured_at = \(date) WHERE id = \(id.rawValue)", logger: logger)
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
