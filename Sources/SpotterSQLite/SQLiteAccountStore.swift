import Foundation
import GRDB
import SpotterCore
import SpotterModels

struct SQLiteAccountStore: AccountStore {
    let pool: DatabasePool

    private static let columns =
        "id, username, email, password_hash, display_name, apple_subject, created_at"

    func create(_ account: AccountRecord) async throws {
        try await mappingConstraintErrors {
            try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name,
                                           apple_subject, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        account.id.description, account.username, account.username.lowercased(), account.email,
                        account.email?.lowercased(), account.passwordHash, account.displayName, account.appleSubject,
                        account.createdAt.sqliteValue,
                    ])
            }
        }
    }

    func find(id: UserID) async throws -> AccountRecord? {
        try await fetch("WHERE id = ?", [id.description])
    }

    func find(login: String) async throws -> AccountRecord? {
        let key = login.lowercased()
        return try await fetch("WHERE username_key = ? OR email_key = ? LIMIT 1", [key, key])
    }

    func find(appleSubject: String) async throws -> AccountRecord? {
        try await fetch("WHERE apple_subject = ?", [appleSubject])
    }

    func setAppleSubject(_ subject: String, for id: UserID) async throws {
        try await mappingConstraintErrors {
            try await pool.write { db in
                try db.execute(
                    sql: "UPDATE users SET apple_subject = ? WHERE id = ?", arguments: [subject, id.description])
            }
        }
    }

    func setDisplayName(_ displayName: String, for id: UserID) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE users SET display_name = ? WHERE id = ?", arguments: [displayName, id.description])
        }
    }

    private func fetch(_ clause: String, _ arguments: StatementArguments) async throws -> AccountRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM users \(clause)", arguments: arguments)
                .map(Self.record)
        }
    }

    static func record(_ row: Row) -> AccountRecord {
        AccountRecord(
            id: UserID(row["id"] as String)!, username: row["username"], email: row["email"],
            passwordHash: row["password_hash"], displayName: row["display_name"], appleSubject: row["apple_subject"],
            createdAt: Date(sqliteValue: row["created_at"]))
    }
}
