import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

struct PostgresTokenStore: TokenStore {
    let database: PostgresDatabase
    let logger: Logger

    func insert(_ token: TokenRecord) async throws {
        try await mappingConstraintErrors {
            try await database.guardedQuery(
                PostgresQuery(
                    TokenSQL.insert.postgres,
                    [
                        "hash": PostgresBind(token.hash), "user": PostgresBind(token.userID.rawValue),
                        "family": PostgresBind(token.family), "kind": PostgresBind(token.kind.rawValue),
                        "createdAt": PostgresBind(token.createdAt), "expiresAt": PostgresBind(token.expiresAt),
                        "usedAt": PostgresBind(token.usedAt), "revokedAt": PostgresBind(token.revokedAt),
                    ]), logger: logger)
        }
    }

    func find(hash: String) async throws -> TokenRecord? {
        let rows = try await database.query(
            """
            SELECT hash, user_id, family, kind, created_at, expires_at, used_at, revoked_at
            FROM tokens WHERE hash = \(hash)
            """, logger: logger)
        for try await (hash, userID, family, kind, createdAt, expiresAt, usedAt, revokedAt) in rows.decode(
            (String, UUID, UUID, String, Date, Date, Date?, Date?).self)
        {
            guard let kind = TokenKind(rawValue: kind) else { return nil }
            return TokenRecord(
                hash: hash, userID: UserID(rawValue: userID), family: family, kind: kind, createdAt: createdAt,
                expiresAt: expiresAt, usedAt: usedAt, revokedAt: revokedAt)
        }
        return nil
    }

    func findWithAccount(hash: String) async throws -> (TokenRecord, AccountRecord?)? {
        for columns in try await database.execute(TokenWithAccountStatement(hash: hash), logger: logger) {
            guard let kind = TokenKind(rawValue: try columns[3].decode(String.self)) else { return nil }
            let token = TokenRecord(
                hash: try columns[0].decode(String.self), userID: UserID(rawValue: try columns[1].decode(UUID.self)),
                family: try columns[2].decode(UUID.self), kind: kind, createdAt: try columns[4].decode(Date.self),
                expiresAt: try columns[5].decode(Date.self), usedAt: try columns[6].decode(Date?.self),
                revokedAt: try columns[7].decode(Date?.self))
            let hasAccount = try columns[8].decode(Bool.self)
            return (token, hasAccount ? try PostgresAccountStore.record(columns, offset: 9) : nil)
        }
        return nil
    }

    func markUsed(hash: String, at date: Date) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(TokenSQL.markUsed.postgres, ["at": PostgresBind(date), "hash": PostgresBind(hash)]),
            logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func revokeFamily(_ family: UUID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(TokenSQL.revokeFamily.postgres, ["at": PostgresBind(date), "family": PostgresBind(family)]),
            logger: logger)
    }

    func revokeFamilies(of user: UserID, except family: UUID, at date: Date) async throws -> Set<UUID> {
        let rows = try await database.query(
            PostgresQuery(
                TokenSQL.revokeOtherFamilies.postgres,
                ["at": PostgresBind(date), "user": PostgresBind(user.rawValue), "family": PostgresBind(family)]),
            logger: logger)
        var families: Set<UUID> = []
        for try await revoked in rows.decode(UUID.self) { families.insert(revoked) }
        return families
    }

    func activeLogins(of user: UserID, at date: Date, limit: Int) async throws -> [LoginRecord] {
        let rows = try await database.query(
            PostgresQuery(
                TokenSQL.activeLogins.postgres,
                ["user": PostgresBind(user.rawValue), "now": PostgresBind(date), "limit": PostgresBind(limit)]),
            logger: logger)
        var logins: [LoginRecord] = []
        for try await (family, started, active, userAgent, address) in rows.decode(
            (UUID, Date, Date, String?, String?).self)
        {
            logins.append(
                LoginRecord(
                    family: family, startedAt: started, lastActiveAt: active, userAgent: userAgent, address: address))
        }
        return logins
    }

    func recordLogin(_ family: UUID, of user: UserID, userAgent: String?, address: String?, at date: Date) async throws
    {
        try await database.query(
            PostgresQuery(
                TokenSQL.recordLogin.postgres,
                [
                    "family": PostgresBind(family), "user": PostgresBind(user.rawValue),
                    "userAgent": PostgresBind(userAgent), "address": PostgresBind(address), "at": PostgresBind(date),
                ]), logger: logger)
    }

    func deleteExpired(before date: Date) async throws -> Int {
        let rows = try await database.query(
            PostgresQuery(TokenSQL.deleteExpired.postgres, ["before": PostgresBind(date)]), logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        try await database.query(PostgresQuery(TokenSQL.deleteEndedLogins.postgres, [:]), logger: logger)
        return count
    }
}
