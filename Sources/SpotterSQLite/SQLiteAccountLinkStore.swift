import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteAccountLinkStore: AccountLinkStore {
    let database: SQLiteDatabase

    func insert(_ link: AccountLinkRecord) async throws {
        try await database.write { db in
            try db.execute(
                cached: AccountLinkSQL.insert.sqlite,
                arguments: [
                    "hash": link.hash, "user": link.userID.description, "purpose": link.purpose.rawValue,
                    "newEmail": link.newEmail, "createdAt": link.createdAt.sqliteValue,
                    "expiresAt": link.expiresAt.sqliteValue, "usedAt": link.usedAt?.sqliteValue,
                ])
        }
    }

    /// The writer runs one write at a time, so the read and the updates below are one step.
    func consume(hash: String, purpose: AccountLinkPurpose, at date: Date) async throws -> AccountLinkRecord? {
        try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    cached: db,
                    sql: AccountLinkSQL.find.sqlite,
                    arguments: ["hash": hash, "purpose": purpose.rawValue, "at": date.sqliteValue]),
                let userID = UserID(row[0] as String)
            else { return nil }
            try db.execute(
                cached: AccountLinkSQL.useAll.sqlite,
                arguments: ["at": date.sqliteValue, "user": userID.description, "purpose": purpose.rawValue])
            return AccountLinkRecord(
                hash: hash, userID: userID, purpose: purpose, newEmail: row[1],
                createdAt: Date(sqliteValue: row[2]), expiresAt: Date(sqliteValue: row[3]), usedAt: date)
        }
    }

    func deleteExpired(before date: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(cached: AccountLinkSQL.deleteExpired.sqlite, arguments: ["before": date.sqliteValue])
            return db.changesCount
        }
    }
}
