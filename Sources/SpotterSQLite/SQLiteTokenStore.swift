import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

struct SQLiteTokenStore: TokenStore {
    let database: SQLiteDatabase

    func insert(_ token: TokenRecord) async throws {
        try await mappingConstraintErrors {
            try await database.write { db in
                try db.execute(
                    cached: TokenSQL.insert.sqlite,
                    arguments: [
                        "hash": token.hash, "user": token.userID.description, "family": UUIDText.format(token.family),
                        "kind": token.kind.rawValue, "createdAt": token.createdAt.sqliteValue,
                        "expiresAt": token.expiresAt.sqliteValue, "usedAt": token.usedAt?.sqliteValue,
                        "revokedAt": token.revokedAt?.sqliteValue,
                    ])
            }
        }
    }

    func find(hash: String) async throws -> TokenRecord? {
        try await database.read { db in try Self.token(hash: hash, db) }
    }

    /// A token row's columns, in the order the statements select them.
    enum Column: Int, SQLiteColumns {
        case hash, userID, family, kind, createdAt, expiresAt, usedAt, revokedAt

        var sql: String {
            switch self {
            case .hash: "tokens.hash"
            case .userID: "tokens.user_id"
            case .family: "tokens.family"
            case .kind: "tokens.kind"
            case .createdAt: "tokens.created_at"
            case .expiresAt: "tokens.expires_at"
            case .usedAt: "tokens.used_at"
            case .revokedAt: "tokens.revoked_at"
            }
        }
    }

    private static let columns = Column.selectList

    private static func token(hash: String, _ db: Database) throws -> TokenRecord? {
        try Row.fetchOne(cached: db, sql: "SELECT \(columns) FROM tokens WHERE hash = ?", arguments: [hash])
            .flatMap(Self.record)
    }

    /// Made once: interpolated on every signed-in request, it was built and hashed afresh each time.
    private static let withAccount = """
        SELECT \(columns), \(SQLiteAccountStore.columns)
        FROM tokens LEFT JOIN users ON users.id = tokens.user_id WHERE tokens.hash = ?
        """

    /// One statement for both: every signed-in request makes this read, and a second statement cost a second
    /// row set-up (GRDB maps each statement's column names) and a second step through SQLite. One statement
    /// sees one state of the database by itself, so it skips the transaction `read` would open around it
    /// (a `BEGIN` and a `COMMIT`, each prepared afresh and run, on every signed-in request).
    func findWithAccount(hash: String) async throws -> (TokenRecord, AccountRecord?)? {
        try await database.lookup { db in
            try db.firstRow(cached: Self.withAccount, arguments: [hash]) { row -> (TokenRecord, AccountRecord?)? in
                guard let token = Self.record(row) else { return nil }
                // Tokens go with their account, but one without reads as having none, as two reads gave.
                let hasAccount = (row.text(Self.columnCount) as String?) != nil
                return (token, hasAccount ? SQLiteAccountStore.record(row, offset: Self.columnCount) : nil)
            } ?? nil
        }
    }

    func markUsed(hash: String, at date: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: TokenSQL.markUsed.sqlite, arguments: ["at": date.sqliteValue, "hash": hash])
            return db.changesCount == 1
        }
    }

    func revokeFamily(_ family: UUID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: TokenSQL.revokeFamily.sqlite,
                arguments: ["at": date.sqliteValue, "family": UUIDText.format(family)])
        }
    }

    func revokeFamilies(of user: UserID, except family: UUID, at date: Date) async throws -> Set<UUID> {
        let families = try await database.write { db in
            try String.fetchAll(
                cached: db,
                sql: TokenSQL.revokeOtherFamilies.sqlite,
                arguments: ["at": date.sqliteValue, "user": user.description, "family": UUIDText.format(family)])
        }
        return Set(families.compactMap { UUID(uuidString: $0) })
    }

    func activeLogins(of user: UserID, at date: Date, limit: Int) async throws -> [LoginRecord] {
        try await database.read { db in
            let rows = try Row.fetchAll(
                cached: db,
                sql: TokenSQL.activeLogins.sqlite,
                arguments: ["user": user.description, "now": date.sqliteValue, "limit": limit])
            return rows.compactMap { row in
                UUID(uuidString: row[0] as String).map {
                    LoginRecord(
                        family: $0, startedAt: Date(sqliteValue: row[1]), lastActiveAt: Date(sqliteValue: row[2]),
                        userAgent: row[3], address: row[4])
                }
            }
        }
    }

    func recordLogin(_ family: UUID, of user: UserID, userAgent: String?, address: String?, at date: Date) async throws
    {
        try await database.write { db in
            try db.execute(
                cached: TokenSQL.recordLogin.sqlite,
                arguments: [
                    "family": UUIDText.format(family), "user": user.description, "userAgent": userAgent,
                    "address": address, "at": date.sqliteValue,
                ])
        }
    }

    func deleteExpired(before date: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(cached: TokenSQL.deleteExpired.sqlite, arguments: ["before": date.sqliteValue])
            let deleted = db.changesCount
            try db.execute(cached: TokenSQL.deleteEndedLogins.sqlite)
            return deleted
        }
    }

    private static let columnCount = Column.count

    /// A token from the row's first `Column.count` columns.
    static func record(_ row: some SQLiteRowValues) -> TokenRecord? {
        guard let userID = UserID(row.text(Column.userID.index) as String),
            let family = UUIDText.parse(row.text(Column.family.index)),
            let kind = TokenKind(rawValue: row.text(Column.kind.index))
        else { return nil }
        return TokenRecord(
            hash: row.text(Column.hash.index), userID: userID, family: family, kind: kind,
            createdAt: Date(sqliteValue: row.real(Column.createdAt.index)),
            expiresAt: Date(sqliteValue: row.real(Column.expiresAt.index)),
            usedAt: (row.real(Column.usedAt.index) as Double?).map(Date.init(sqliteValue:)),
            revokedAt: (row.real(Column.revokedAt.index) as Double?).map(Date.init(sqliteValue:)))
    }
}
