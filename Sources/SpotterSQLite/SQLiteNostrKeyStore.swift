import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterSQL

// Linked keys, one-time values and imports: `NostrStore`'s small tables.
extension SQLiteNostrStore {
    // MARK: Linked keys

    /// Also gives the key's events stored while it was linked to nobody (an `open` relay) to the account, so
    /// from now on they show only as its privacy allows.
    func link(_ key: NostrPublicKey, to user: UserID, at date: Date) async throws {
        let linked = try await database.write { db in
            try db.execute(
                cached: NostrSQL.link.sqlite,
                arguments: ["key": key.rawValue, "user": user.description, "at": date.sqliteValue])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                cached: NostrSQL.claimEvents.sqlite, arguments: ["user": user.description, "key": key.rawValue])
            return true
        }
        guard linked else { throw StorageError.duplicate(field: "pubkey") }
    }

    func unlink(_ key: NostrPublicKey, from user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: NostrSQL.unlink.sqlite, arguments: ["key": key.rawValue, "user": user.description])
            return db.changesCount > 0
        }
    }

    func keys(of user: UserID) async throws -> [LinkedNostrKey] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: NostrSQL.keys.sqlite, arguments: ["user": user.description]
            ).map { row in
                LinkedNostrKey(
                    pubkey: NostrPublicKey(unchecked: row[0]), user: user, linkedAt: Date(sqliteValue: row[1]))
            }
        }
    }

    func owner(of key: NostrPublicKey) async throws -> UserID? {
        // Every EVENT asks: a point read on the calling thread.
        try await database.lookup { db in
            try String.fetchOne(
                cached: db, sql: NostrSQL.owner.sqlite, arguments: ["key": key.rawValue])
        }.flatMap(UserID.init)
    }

    // MARK: One-time values

    func insertChallenge(hash: String, user: UserID, expiresAt: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: NostrSQL.insertChallenge.sqlite,
                arguments: ["hash": hash, "user": user.description, "at": expiresAt.sqliteValue])
        }
    }

    func consumeChallenge(hash: String, at date: Date) async throws -> UserID? {
        try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    cached: db, sql: NostrSQL.consumeChallenge.sqlite, arguments: ["hash": hash]),
                Date(sqliteValue: row[1]) > date
            else { return nil }
            return UserID(row[0] as String)
        }
    }

    func markAuthorizationUsed(_ id: NostrEventID, expiresAt: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: NostrSQL.markAuthorizationUsed.sqlite,
                arguments: ["id": id.rawValue, "at": expiresAt.sqliteValue])
            return db.changesCount == 1
        }
    }

    func deleteExpiredOneTimeValues(before date: Date) async throws {
        try await database.write { db in
            try db.execute(cached: NostrSQL.deleteExpiredChallenges.sqlite, arguments: ["before": date.sqliteValue])
            try db.execute(
                cached: NostrSQL.deleteExpiredAuthorizations.sqlite, arguments: ["before": date.sqliteValue])
        }
    }

    // MARK: Imports

    func recordImport(_ record: NostrImport) async throws {
        let target = record.target.stored
        let recorded = try await database.write { db in
            try db.execute(
                cached: NostrSQL.recordImport.sqlite,
                arguments: [
                    "id": record.eventID.rawValue, "target": target.kind, "first": target.first.map(UUIDText.format),
                    "second": target.second.map(UUIDText.format), "at": record.importedAt.sqliteValue,
                ])
            return db.changesCount == 1
        }
        guard recorded else { throw StorageError.duplicate(field: "event_id") }
    }

    func importRecord(of event: NostrEventID) async throws -> NostrImport? {
        try await database.read { db in
            try Row.fetchOne(
                cached: db, sql: NostrSQL.importRecord.sqlite, arguments: ["id": event.rawValue]
            ).flatMap(Self.importRecord)
        }
    }

    func imports(of target: NostrImport.Target) async throws -> [NostrImport] {
        let stored = target.stored
        return try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: """
                    SELECT \(Self.importColumns) FROM nostr_imports
                    WHERE target = ? AND target_id IS ? AND target_second_id IS ? ORDER BY imported_at, event_id
                    """,
                arguments: [stored.kind, stored.first.map(UUIDText.format), stored.second.map(UUIDText.format)]
            ).compactMap(Self.importRecord)
        }
    }

    private static let importColumns = NostrSQL.importColumns.rendered(.sqlite).text

    private static func importRecord(_ row: Row) -> NostrImport? {
        guard
            let target = NostrImport.Target(
                stored: row[1], first: (row[2] as String?).flatMap(UUIDText.parse),
                second: (row[3] as String?).flatMap(UUIDText.parse))
        else { return nil }
        return NostrImport(
            eventID: NostrEventID(unchecked: row[0]), target: target, importedAt: Date(sqliteValue: row[4]))
    }
}
