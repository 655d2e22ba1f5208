import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterSQL

// Linked keys, one-time values and imports: `NostrStore`'s small tables (see the SQLite twin).
extension PostgresNostrStore {
    // MARK: Linked keys

    func link(_ key: NostrPublicKey, to user: UserID, at date: Date) async throws {
        let linked = try await database.withTransaction(logger: logger) { connection in
            // The insert waits for a concurrent link of the same key to commit, then does nothing.
            let inserted = try await Self.any(
                connection.query(
                    PostgresQuery(
                        NostrSQL.link.postgres,
                        [
                            "key": PostgresBind(key.rawValue), "user": PostgresBind(user.rawValue),
                            "at": PostgresBind(date),
                        ]),
                    logger: logger))
            guard inserted else { return false }
            try await connection.query(
                PostgresQuery(
                    NostrSQL.claimEvents.postgres,
                    ["user": PostgresBind(user.rawValue), "key": PostgresBind(key.rawValue)]),
                logger: logger)
            return true
        }
        guard linked else { throw StorageError.duplicate(field: "pubkey") }
    }

    func unlink(_ key: NostrPublicKey, from user: UserID) async throws -> Bool {
        try await database.changed(
            PostgresQuery(
                NostrSQL.unlink.postgres, ["key": PostgresBind(key.rawValue), "user": PostgresBind(user.rawValue)]),
            logger: logger)
    }

    func keys(of user: UserID) async throws -> [LinkedNostrKey] {
        let rows = try await database.query(
            PostgresQuery(NostrSQL.keys.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger)
        var keys: [LinkedNostrKey] = []
        for try await (pubkey, linkedAt) in rows.decode((String, Date).self) {
            keys.append(LinkedNostrKey(pubkey: NostrPublicKey(unchecked: pubkey), user: user, linkedAt: linkedAt))
        }
        return keys
    }

    func owner(of key: NostrPublicKey) async throws -> UserID? {
        let rows = try await database.query(
            PostgresQuery(NostrSQL.owner.postgres, ["key": PostgresBind(key.rawValue)]), logger: logger)
        var owner: UserID?
        for try await user in rows.decode(UUID.self) { owner = UserID(rawValue: user) }
        return owner
    }

    // MARK: One-time values

    func insertChallenge(hash: String, user: UserID, expiresAt: Date) async throws {
        try await database.query(
            PostgresQuery(
                NostrSQL.insertChallenge.postgres,
                ["hash": PostgresBind(hash), "user": PostgresBind(user.rawValue), "at": PostgresBind(expiresAt)]),
            logger: logger)
    }

    func consumeChallenge(hash: String, at date: Date) async throws -> UserID? {
        let rows = try await database.query(
            PostgresQuery(NostrSQL.consumeChallenge.postgres, ["hash": PostgresBind(hash)]), logger: logger)
        var user: UserID?
        for try await (owner, expiresAt) in rows.decode((UUID, Date).self) where expiresAt > date {
            user = UserID(rawValue: owner)
        }
        return user
    }

    func markAuthorizationUsed(_ id: NostrEventID, expiresAt: Date) async throws -> Bool {
        try await database.changed(
            PostgresQuery(
                NostrSQL.markAuthorizationUsed.postgres,
                ["id": PostgresBind(id.rawValue), "at": PostgresBind(expiresAt)]),
            logger: logger)
    }

    func deleteExpiredOneTimeValues(before date: Date) async throws {
        try await database.query(
            PostgresQuery(NostrSQL.deleteExpiredChallenges.postgres, ["before": PostgresBind(date)]), logger: logger)
        try await database.query(
            PostgresQuery(NostrSQL.deleteExpiredAuthorizations.postgres, ["before": PostgresBind(date)]), logger: logger
        )
    }

    // MARK: Imports

    func recordImport(_ record: NostrImport) async throws {
        let target = record.target.stored
        let recorded = try await database.changed(
            PostgresQuery(
                NostrSQL.recordImport.postgres,
                [
                    "id": PostgresBind(record.eventID.rawValue), "target": PostgresBind(target.kind),
                    "first": PostgresBind(target.first), "second": PostgresBind(target.second),
                    "at": PostgresBind(record.importedAt),
                ]), logger: logger)
        guard recorded else { throw StorageError.duplicate(field: "event_id") }
    }

    func importRecord(of event: NostrEventID) async throws -> NostrImport? {
        try await imports(PostgresQuery(NostrSQL.importRecord.postgres, ["id": PostgresBind(event.rawValue)])).first
    }

    func imports(of target: NostrImport.Target) async throws -> [NostrImport] {
        let stored = target.stored
        // `= NULL` is never true, and `IS NOT DISTINCT FROM` does not use the index: NULL ids are asked for as such.
        let columns = Self.importColumns
        let query: PostgresQuery =
            switch (stored.first, stored.second) {
            case (let first?, let second?):
                """
                SELECT \(unescaped: columns) FROM nostr_imports
                WHERE target = \(stored.kind) AND target_id = \(first) AND target_second_id = \(second)
                """
            case (let first?, nil):
                """
                SELECT \(unescaped: columns) FROM nostr_imports
                WHERE target = \(stored.kind) AND target_id = \(first) AND target_second_id IS NULL
                """
            default:
                """
                SELECT \(unescaped: columns) FROM nostr_imports
                WHERE target = \(stored.kind) AND target_id IS NULL AND target_second_id IS NULL
                """
            }
        return try await imports(query)
    }

    private static let importColumns = NostrSQL.importColumns.rendered(.postgres).text

    private func imports(_ query: PostgresQuery) async throws -> [NostrImport] {
        var found: [NostrImport] = []
        for try await (id, kind, first, second, importedAt) in try await database.query(query, logger: logger).decode(
            (String, String, UUID?, UUID?, Date).self)
        {
            guard let target = NostrImport.Target(stored: kind, first: first, second: second) else { continue }
            found.append(NostrImport(eventID: NostrEventID(unchecked: id), target: target, importedAt: importedAt))
        }
        return found.sorted { ($0.importedAt, $0.eventID.rawValue) < ($1.importedAt, $1.eventID.rawValue) }
    }
}
