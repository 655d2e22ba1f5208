import Foundation
import GRDB
import SpotterCore
import SpotterModels

struct SQLiteTokenStore: TokenStore {
    let pool: DatabasePool

    func insert(_ token: TokenRecord) async throws {
        try await mappingConstraintErrors {
            try await pool.write { db in
                try db.execute(
                    cached: """
                        INSERT INTO tokens (hash, user_id, family, kind, created_at, expires_at, used_at, revoked_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        token.hash, token.userID.description, token.family.uuidString.lowercased(), token.kind.rawValue,
                        token.createdAt.sqliteValue, token.expiresAt.sqliteValue, token.usedAt?.sqliteValue,
                        token.revokedAt?.sqliteValue,
                    ])
            }
        }
    }

    func find(hash: String) async throws -> TokenRecord? {
        try await pool.read { db in try Self.token(hash: hash, db) }
    }

    private static func token(hash: String, _ db: Database) throws -> TokenRecord? {
        try Row.fetchOne(
            cached: db,
            sql: """
                SELECT hash, user_id, family, kind, created_at, expires_at, used_at, revoked_at
                FROM tokens WHERE hash = ?
                """,
            arguments: [hash]
        ).flatMap(Self.record)
    }

    func findWithAccount(hash: String) async throws -> (TokenRecord, AccountRecord?)? {
        try await pool.read { db in
            guard let token = try Self.token(hash: hash, db) else { return nil }
            let account = try Row.fetchOne(
                cached: db, sql: "SELECT \(SQLiteAccountStore.columns) FROM users WHERE id = ?",
                arguments: [token.userID.description]
            ).flatMap(SQLiteAccountStore.record)
            return (token, account)
        }
    }

    func markUsed(hash: String, at date: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                cached: "UPDATE tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND revoked_at IS NULL",
                arguments: [date.sqliteValue, hash])
            return db.changesCount == 1
        }
    }

    func revokeFamily(_ family: UUID, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                cached: "UPDATE tokens SET revoked_at = ? WHERE family = ? AND revoked_at IS NULL",
                arguments: [date.sqliteValue, family.uuidString.lowercased()])
        }
    }

    func revokeFamilies(of user: UserID, except family: UUID, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(
                cached: "UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND family <> ? AND revoked_at IS NULL",
                arguments: [date.sqliteValue, user.description, family.uuidString.lowercased()])
        }
    }

    func deleteExpired(before date: Date) async throws -> Int {
        try await pool.write { db in
            try db.execute(cached: "DELETE FROM tokens WHERE expires_at < ?", arguments: [date.sqliteValue])
            return db.changesCount
        }
    }

    static func record(_ row: Row) -> TokenRecord? {
        guard let userID = UserID(row["user_id"] as String), let family = UUID(uuidString: row["family"]),
            let kind = TokenKind(rawValue: row["kind"])
        else { return nil }
        return TokenRecord(
            hash: row["hash"], userID: userID, family: family, kind: kind,
            createdAt: Date(sqliteValue: row["created_at"]), expiresAt: Date(sqliteValue: row["expires_at"]),
            usedAt: (row["used_at"] as Double?).map(Date.init(sqliteValue:)),
            revokedAt: (row["revoked_at"] as Double?).map(Date.init(sqliteValue:)))
    }
}
