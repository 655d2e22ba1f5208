import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterNostr
import SpotterSQL

/// The relay's storage on SQLite. Writes go one at a time through the writer, so each read-then-write step
/// below (replacing a version, spending a challenge) is atomic without locks of its own.
struct SQLiteNostrStore: NostrStore {
    let database: SQLiteDatabase

    // MARK: Events

    func save(_ event: NostrEvent, author: UserID?, receivedAt: Date) async throws -> NostrSaveOutcome {
        let form = try NostrStoredForm(event)
        let author = author?.description
        return try await database.write { db in
            let event = form.event
            if try Self.isDeleted(form, db) { return .deleted }
            if try Bool.fetchOne(
                cached: db, sql: "SELECT EXISTS (SELECT 1 FROM nostr_events WHERE id = ?)",
                arguments: [event.id.rawValue]) == true
            {
                return .duplicate
            }
            var replaced: [NostrEventID] = []
            if let key = form.replacementKey,
                let stored = try Row.fetchOne(
                    cached: db,
                    sql: NostrSQL.storedVersion.sqlite,
                    arguments: ["pubkey": event.pubkey.rawValue, "kind": event.kind.rawValue, "key": key])
            {
                let (seq, id, createdAt): (Int64, String, Int64) = (stored[0], stored[1], stored[2])
                if form.isSuperseded(byStored: createdAt, id: id) { return .superseded }
                try db.execute(cached: NostrSQL.deleteVersion.sqlite, arguments: ["seq": seq])
                replaced.append(NostrEventID(unchecked: id))
            }
            try db.execute(
                cached: NostrSQL.insertEvent.sqlite,
                arguments: [
                    "id": event.id.rawValue, "pubkey": event.pubkey.rawValue, "createdAt": event.createdAt,
                    "kind": event.kind.rawValue, "key": form.replacementKey, "content": event.content,
                    "raw": form.json, "author": author, "receivedAt": receivedAt.sqliteValue,
                ])
            let seq = db.lastInsertedRowID
            for tag in form.indexedTags {
                try db.execute(
                    cached: "INSERT INTO nostr_tags (event_seq, name, value, created_at) VALUES (?, ?, ?, ?)",
                    arguments: [seq, tag.name, tag.value, event.createdAt])
            }
            return .stored(replaced: replaced)
        }
    }

    /// Whether a stored deletion request of the event's author names it: by id, or by address at or after
    /// its `created_at`.
    private static func isDeleted(_ form: NostrStoredForm, _ db: Database) throws -> Bool {
        let event = form.event
        let byID = try Bool.fetchOne(
            cached: db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM nostr_tags t JOIN nostr_events d ON d.seq = t.event_seq
                               WHERE t.name = 'e' AND t.value = ? AND d.kind = 5 AND d.pubkey = ?)
                """,
            arguments: [event.id.rawValue, event.pubkey.rawValue])
        if byID == true { return true }
        guard let address = event.address else { return false }
        return try Bool.fetchOne(
            cached: db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM nostr_tags t JOIN nostr_events d ON d.seq = t.event_seq
                               WHERE t.name = 'a' AND t.value = ? AND d.kind = 5 AND d.pubkey = ?
                                 AND d.created_at >= ?)
                """,
            arguments: [address, event.pubkey.rawValue, event.createdAt]) == true
    }

    func query(_ filters: [NostrFilter], reader: NostrReader, limitCap: Int) async throws -> [NostrEvent] {
        let wanted = filters.filter { !$0.matchesNothing && $0.effectiveLimit(cap: limitCap) > 0 }
        guard !wanted.isEmpty else { return [] }
        let reader = reader.user?.description
        let rows = try await database.read { db in
            var found: [String: SQLiteNostrQuery.Found] = [:]
            for filter in wanted {
                for row in try SQLiteNostrQuery.newest(filter, reader: reader, limitCap: limitCap, db) {
                    found[row.id] = row
                }
            }
            return Array(found.values)
        }
        return try rows.sorted(by: SQLiteNostrQuery.Found.precedes).map { try Self.decode($0.raw) }
    }

    func count(_ filters: [NostrFilter], reader: NostrReader) async throws -> Int {
        let wanted = filters.filter { !$0.matchesNothing }
        guard !wanted.isEmpty else { return 0 }
        let (sql, arguments) = SQLiteNostrQuery.count(wanted, reader: reader.user?.description)
        return try await database.read { db in try Int.fetchOne(cached: db, sql: sql, arguments: arguments) ?? 0 }
    }

    func find(_ id: NostrEventID) async throws -> StoredNostrEvent? {
        let stored = try await database.read { db -> (String, String?, Bool, Double)? in
            try Row.fetchOne(
                cached: db, sql: NostrSQL.find.sqlite, arguments: ["id": id.rawValue]
            ).map { ($0[0], $0[1], $0[2], $0[3]) }
        }
        guard let (raw, author, hidden, receivedAt) = stored else { return nil }
        return StoredNostrEvent(
            event: try Self.decode(raw), author: author.flatMap(UserID.init), hidden: hidden,
            receivedAt: Date(sqliteValue: receivedAt))
    }

    func applyDeletion(_ deletion: NostrEvent) async throws -> [NostrEventID] {
        let targets = NostrDeletionTargets(deletion)
        let pubkey = deletion.pubkey.rawValue
        let ids = try await database.write { db in
            // A deletion request never deletes another one (NIP-09).
            var hidden = try String.fetchAll(
                cached: db,
                sql: """
                    UPDATE nostr_events SET hidden = 1
                    WHERE id IN (SELECT value FROM json_each(?)) AND pubkey = ? AND kind <> 5 RETURNING id
                    """,
                arguments: [SQLiteNostrQuery.jsonArray(targets.ids.map(\.rawValue)), pubkey])
            for address in targets.addresses {
                hidden += try String.fetchAll(
                    cached: db,
                    sql: NostrSQL.hideAddress.sqlite,
                    arguments: [
                        "pubkey": pubkey, "kind": address.kind.rawValue, "key": address.replacementKey,
                        "until": deletion.createdAt,
                    ])
            }
            return hidden
        }
        return ids.sorted().map(NostrEventID.init(unchecked:))
    }

    func setHidden(_ id: NostrEventID, _ hidden: Bool) async throws {
        try await database.write { db in
            try db.execute(cached: NostrSQL.setHidden.sqlite, arguments: ["hidden": hidden, "id": id.rawValue])
        }
    }

    static func decode(_ raw: String) throws -> NostrEvent {
        try NostrJSON.decoder.decode(NostrEvent.self, from: Data(raw.utf8))
    }
}
