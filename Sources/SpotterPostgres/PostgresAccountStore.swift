import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

struct PostgresAccountStore: AccountStore {
    let client: PostgresClient
    let logger: Logger

    private typealias Row = (UUID, String, String?, String?, String, String?, Date)

    func create(_ account: AccountRecord) async throws {
        try await mappingConstraintErrors {
            try await client.query(
                """
                INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name,
                                   apple_subject, created_at)
                VALUES (\(account.id.rawValue), \(account.username), \(account.username.lowercased()),
                        \(account.email), \(account.email?.lowercased()), \(account.passwordHash),
                        \(account.displayName), \(account.appleSubject), \(account.createdAt))
                """, logger: logger)
        }
    }

    func find(id: UserID) async throws -> AccountRecord? {
        try await fetchOne(
            """
            SELECT id, username, email, password_hash, display_name, apple_subject, created_at
            FROM users WHERE id = \(id.rawValue)
            """)
    }

    func find(login: String) async throws -> AccountRecord? {
        let key = login.lowercased()
        return try await fetchOne(
            """
            SELECT id, username, email, password_hash, display_name, apple_subject, created_at
            FROM users WHERE username_key = \(key) OR email_key = \(key) LIMIT 1
            """)
    }

    func find(appleSubject: String) async throws -> AccountRecord? {
        try await fetchOne(
            """
            SELECT id, username, email, password_hash, display_name, apple_subject, created_at
            FROM users WHERE apple_subject = \(appleSubject)
            """)
    }

    func setAppleSubject(_ subject: String, for id: UserID) async throws {
        try await mappingConstraintErrors {
            try await client.query(
                "UPDATE users SET apple_subject = \(subject) WHERE id = \(id.rawValue)", logger: logger)
        }
    }

    func setDisplayName(_ displayName: String, for id: UserID) async throws {
        try await client.query(
            "UPDATE users SET display_name = \(displayName) WHERE id = \(id.rawValue)", logger: logger)
    }

    private func fetchOne(_ query: PostgresQuery) async throws -> AccountRecord? {
        let rows = try await client.query(query, logger: logger)
        for try await (id, username, email, hash, displayName, apple, createdAt) in rows.decode(Row.self) {
            return AccountRecord(
                id: UserID(rawValue: id), username: username, email: email, passwordHash: hash,
                displayName: displayName, appleSubject: apple, createdAt: createdAt)
        }
        return nil
    }
}
