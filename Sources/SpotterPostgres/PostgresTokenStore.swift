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
                """
                INSERT INTO tokens (hash, user_id, family, kind, created_at, expires_at, used_at, revoked_at)
                VALUES (\(token.hash), \(token.userID.rawValue), \(token.family), \(token.kind.rawValue),
                        \(token.createdAt), \(token.expiresAt), \(token.usedAt), \(token.revokedAt))
                """, logger: logger)
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
        // The conditional UPDATE is atomic: of two concurrent refreshes exactly one gets the row back.
        let rows = try await database.query(
            """
            UPDATE tokens SET used_at = \(date)
            WHERE hash = \(hash) AND used_at IS NULL AND revoked_at IS NULL
            RETURNING hash
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func revokeFamily(_ family: UUID, at date: Date) async throws {
        try await database.query(
            "UPDATE tokens SET revoked_at = \(date) WHERE family = \(family) AND revoked_at IS NULL", logger: logger)
    }

    func revokeFamilies(of user: UserID, except family: UUID, at date: Date) async throws -> Set<UUID> {
        let rows = try await database.query(
            """
            UPDATE tokens SET revoked_at = \(date)
            WHERE user_id = \(user.rawValue) AND family <> \(family) AND revoked_at IS NULL
            RETURNING family
            """, logger: logger)
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
            """
            INSERT INTO login_devices (family, user_id, user_agent, address, created_at)
            VALUES (\(family), \(user.rawValue), \(userAgent), \(address), \(date))
            ON CONFLICT (family) DO NOTHING
            """, logger: logger)
    }

    func deleteExpired(before date: Date) async throws -> Int {
        let rows = try await database.query(
            "DELETE FROM tokens WHERE expires_at < \(date) RETURNING hash", logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        // A login whose last token is gone is over: what it signed in from goes with it.
        try await database.query(
            """
            DELETE FROM login_devices WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE tokens.family = login_devices.family)
            """, logger: logger)
        return count
    }
}
