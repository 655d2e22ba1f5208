import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresAccountLinkStore: AccountLinkStore {
    let database: PostgresDatabase
    let logger: Logger

    func insert(_ link: AccountLinkRecord) async throws {
        try await database.query(
            PostgresQuery(
                AccountLinkSQL.insert.postgres,
                [
                    "hash": PostgresBind(link.hash), "user": PostgresBind(link.userID.rawValue),
                    "purpose": PostgresBind(link.purpose.rawValue), "newEmail": PostgresBind(link.newEmail),
                    "createdAt": PostgresBind(link.createdAt), "expiresAt": PostgresBind(link.expiresAt),
                    "usedAt": PostgresBind(link.usedAt),
                ]), logger: logger)
    }

    func consume(hash: String, purpose: AccountLinkPurpose, at date: Date) async throws -> AccountLinkRecord? {
        let rows = try await database.query(
            PostgresQuery(
                AccountLinkSQL.use.postgres,
                ["at": PostgresBind(date), "hash": PostgresBind(hash), "purpose": PostgresBind(purpose.rawValue)]),
            logger: logger)
        var used: AccountLinkRecord?
        for try await (userID, newEmail, createdAt, expiresAt) in rows.decode((UUID, String?, Date, Date).self) {
            used = AccountLinkRecord(
                hash: hash, userID: UserID(rawValue: userID), purpose: purpose, newEmail: newEmail,
                createdAt: createdAt, expiresAt: expiresAt, usedAt: date)
        }
        guard let used else { return nil }
        try await database.query(
            PostgresQuery(
                AccountLinkSQL.useAll.postgres,
                [
                    "at": PostgresBind(date), "user": PostgresBind(used.userID.rawValue),
                    "purpose": PostgresBind(purpose.rawValue),
                ]), logger: logger)
        return used
    }

    func deleteExpired(before date: Date) async throws -> Int {
        let rows = try await database.query(
            PostgresQuery(AccountLinkSQL.deleteExpired.postgres, ["before": PostgresBind(date)]), logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }
}
