import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterSQL

/// The relay's storage on PostgreSQL, where several nodes save at once: replacing a version of a replaceable
/// or addressable event holds a transaction lock on its address, so of two versions saved together the one
/// that comes second sees the first and keeps the newer.
struct PostgresNostrStore: NostrStore {
    let database: PostgresDatabase
    let logger: Logger

    /// The first key of the address locks (`pg_advisory_xact_lock(int, int)`), apart from other advisory locks.
    private static let addressLocks: Int32 = 7427

    // MARK: Events

    func save(_ event: NostrEvent, author: UserID?, receivedAt: Date) async throws -> NostrSaveOutcome {
        let form = try NostrStoredForm(event)
        let (id, pubkey, kind) = (event.id.rawValue, event.pubkey.rawValue, Int32(event.kind.rawValue))
        return try await database.withTransaction(logger: logger) { connection in
            if let address = event.address {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(Self.addressLocks), hashtext(\(address)))", logger: logger)
            }
            if try await Self.isDeleted(form, connection, logger) { return .deleted }
            if try await Self.any(
                connection.query("SELECT 1 FROM nostr_events WHERE id = \(id)", logger: logger))
            {
                return .duplicate
            }
            var replaced: [NostrEventID] = []
            if let key = form.replacementKey {
                let rows = try await connection.query(
                    PostgresQuery(
                        NostrSQL.storedVersion.postgres,
                        ["pubkey": PostgresBind(pubkey), "kind": PostgresBind(kind), "key": PostgresBind(key)]),
                    logger: logger)
                var stored: [(seq: Int64, id: String, createdAt: Int64)] = []
                for try await row in rows.decode((Int64, String, Int64).self) { stored.append(row) }
                for version in stored {
                    if form.isSuperseded(byStored: version.createdAt, id: version.id) { return .superseded }
                    replaced.append(NostrEventID(unchecked: version.id))
                    try await connection.query(
                        PostgresQuery(NostrSQL.deleteVersion.postgres, ["seq": PostgresBind(version.seq)]),
                        logger: logger)
                }
            }
            let inserted = try await connection.query(
                PostgresQuery(
                    NostrSQL.insertEvent.postgres,
                    [
                        "id": PostgresBind(id), "pubkey": PostgresBind(pubkey),
                        "createdAt": PostgresBind(event.createdAt),
                        "kind": PostgresBind(kind), "key": PostgresBind(form.replacementKey),
                        "content": PostgresBind(event.content), "raw": PostgresBind(form.json),
                        "author": PostgresBind(author?.rawValue), "receivedAt": PostgresBind(receivedAt),
                    ]), logger: logger)
            var seq: Int64?
            for try await value in inserted.decode(Int64.self) { seq = value }
            // The same event, saved at the same moment by another connection that committed first.
            guard let seq else { return .duplicate }
            if !form.indexedTags.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO nostr_tags (event_seq, name, value, created_at)
                    SELECT \(seq), t.name, t.value, \(event.createdAt)
                    FROM unnest(\(form.indexedTags.map(\.name))::text[], \(form.indexedTags.map(\.value))::text[])
                         AS t(name, value)
                    """, logger: logger)
            }
            return .stored(replaced: replaced)
        }
    }

    /// Whether a stored deletion request of the event's author names it (see the SQLite twin).
    private static func isDeleted(
        _ form: NostrStoredForm, _ connection: PostgresSession, _ logger: Logger
    ) async throws -> Bool {
        let event = form.event
        let (id, pubkey) = (event.id.rawValue, event.pubkey.rawValue)
        if try await any(
            connection.query(
                """
                SELECT 1 FROM nostr_tags t JOIN nostr_events d ON d.seq = t.event_seq
                WHERE t.name = 'e' AND t.value = \(id) AND d.kind = 5 AND d.pubkey = \(pubkey) LIMIT 1
                """, logger: logger))
        {
            return true
        }
        guard let address = event.address else { return false }
        return try await any(
            connection.query(
                """
                SELECT 1 FROM nostr_tags t JOIN nostr_events d ON d.seq = t.event_seq
                WHERE t.name = 'a' AND t.value = \(address) AND d.kind = 5 AND d.pubkey = \(pubkey)
                  AND d.created_at >= \(event.createdAt) LIMIT 1
                """, logger: logger))
    }

    func query(_ filters: [NostrFilter], reader: NostrReader, limitCap: Int) async throws -> [NostrEvent] {
        var found: [String: (createdAt: Int64, raw: String)] = [:]
        for filter in filters where !filter.matchesNothing && filter.effectiveLimit(cap: limitCap) > 0 {
            let query = try PostgresNostrQuery.newest(filter, reader: reader.user?.rawValue, limitCap: limitCap)
            for try await (createdAt, id, raw) in try await database.query(query, logger: logger).decode(
                (Int64, String, String).self)
            {
                found[id] = (createdAt, raw)
            }
        }
        return try found.sorted { a, b in
            a.value.createdAt != b.value.createdAt ? a.value.createdAt > b.value.createdAt : a.key < b.key
        }.map { try Self.decode($0.value.raw) }
    }

    func count(_ filters: [NostrFilter], reader: NostrReader) async throws -> Int {
        let wanted = filters.filter { !$0.matchesNothing }
        guard !wanted.isEmpty else { return 0 }
        let query = try PostgresNostrQuery.count(wanted, reader: reader.user?.rawValue)
        for try await count in try await database.query(query, logger: logger).decode(Int.self) { return count }
        return 0
    }

    func find(_ id: NostrEventID) async throws -> StoredNostrEvent? {
        let rows = try await database.query(
            PostgresQuery(NostrSQL.find.postgres, ["id": PostgresBind(id.rawValue)]), logger: logger)
        for try await (raw, author, hidden, receivedAt) in rows.decode((String, UUID?, Bool, Date).self) {
            return StoredNostrEvent(
                event: try Self.decode(raw), author: author.map(UserID.init(rawValue:)), hidden: hidden,
                receivedAt: receivedAt)
        }
        return nil
    }

    func applyDeletion(_ deletion: NostrEvent) async throws -> [NostrEventID] {
        let targets = NostrDeletionTargets(deletion)
        let pubkey = deletion.pubkey.rawValue
        let ids = try await database.withTransaction(logger: logger) { connection in
            var hidden: [String] = []
            // A deletion request never deletes another one (NIP-09).
            let byID = try await connection.query(
                """
                UPDATE nostr_events SET hidden = true
                WHERE id = ANY(\(targets.ids.map(\.rawValue))::text[]) AND pubkey = \(pubkey) AND kind <> 5
                RETURNING id
                """, logger: logger)
            for try await id in byID.decode(String.self) { hidden.append(id) }
            for address in targets.addresses {
                let byAddress = try await connection.query(
                    PostgresQuery(
                        NostrSQL.hideAddress.postgres,
                        [
                            "pubkey": PostgresBind(pubkey), "kind": PostgresBind(Int32(address.kind.rawValue)),
                            "key": PostgresBind(address.replacementKey), "until": PostgresBind(deletion.createdAt),
                        ]), logger: logger)
                for try await id in byAddress.decode(String.self) { hidden.append(id) }
            }
            return hidden
        }
        return ids.sorted().map(NostrEventID.init(unchecked:))
    }

    func setHidden(_ id: NostrEventID, _ hidden: Bool) async throws {
        try await database.query(
            PostgresQuery(
                NostrSQL.setHidden.postgres, ["hidden": PostgresBind(hidden), "id": PostgresBind(id.rawValue)]),
            logger: logger)
    }

    static func decode(_ raw: String) throws -> NostrEvent {
        try NostrJSON.decoder.decode(NostrEvent.self, from: Data(raw.utf8))
    }

    /// Whether a statement returned any row.
    static func any(_ rows: PostgresRows) -> Bool { !rows.isEmpty }
}
