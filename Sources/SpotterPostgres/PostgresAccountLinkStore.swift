import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

struct PostgresAccountLinkStore: AccountLinkStore {
    let database: PostgresDatabase
    let logger: Logger

    func insert(_ link: AccountLinkRecord) async throws {
        try await database.query(
            """
            INSERT INTO account_links (hash, user_id, purpose, new_email, created_at, expires_at, used_at)
            VALUES (\(link.hash), \(link.userID.rawValue), \(link.purpose.rawValue), \(link.newEmail),
                    \(link.createdAt), \(link.expiresAt), \(link.usedAt))
            """, logger: logger)
    }

    func consume(hash: String, purpose: AccountLinkPurpose, at date: Date) async throws -> AccountLinkRecord? {
        // The conditional UPDATE is atomic: of two concurrent uses exactly one gets the row back.
        let rows = try await database.query(
            """
            UPDATE account_links SET used_at = \(date)
            WHERE hash = \(hash) AND purpose = \(purpose.rawValue) AND used_at IS NULL AND expires_at > \(date)
            RETURNING user_id, new_email, created_at, expires_at
            """, logger: logger)
        var used: AccountLinkRecord?
        for try await (userID, newEmail, createdAt, expiresAt) in rows.decode((UUID, String?, Date, Date).self) {
            used = AccountLinkRecord(
                hash: hash, userID: UserID(rawValue: userID), purpose: purpose, newEmail: newEmail,
                createdAt: createdAt, expiresAt: expiresAt, usedAt: date)
        }
        guard let used else { return nil }
        try await database.query(
            """
            UPDATE account_links SET used_at = \(date)
            WHERE user_id = \(used.userID.rawValue) AND purpose = \(purpose.rawValue) AND used_at IS NULL
            """, logger: logger)
        return used
    }

    func deleteExpired(before date: Date) async throws -> Int {
        let rows = try await database.query(
            "DELETE FROM account_links WHERE expires_at < \(date) RETURNING hash", logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }
}
