import Foundation
import GRDB
import SpotterModels
import SpotterNostr

/// The Nostr publication queue's tables (issue 27): signed events, one row per (event, relay) saying how far it
/// got, the external relays the person added, and the person's Nostr settings. The key itself is not here: it
/// stays in its `NostrKeyStore`.
extension AppDatabase {
    static func registerNostrMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("nostr publications") { db in
            try db.execute(
                sql: """
                    CREATE TABLE nostr_events (
                        id TEXT PRIMARY KEY,
                        json TEXT NOT NULL,
                        post TEXT,
                        created_at REAL NOT NULL);
                    CREATE TABLE nostr_publications (
                        event_id TEXT NOT NULL REFERENCES nostr_events(id) ON DELETE CASCADE,
                        relay TEXT NOT NULL,
                        state TEXT NOT NULL DEFAULT 'pending',
                        attempts INTEGER NOT NULL DEFAULT 0,
                        message TEXT,
                        next_attempt_at REAL,
                        PRIMARY KEY (event_id, relay));
                    CREATE INDEX nostr_publications_pending ON nostr_publications (state, relay);
                    CREATE TABLE nostr_relays (url TEXT PRIMARY KEY, added_at REAL NOT NULL);
                    CREATE TABLE nostr_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                    """)
        }
    }

    /// Stores a signed event for each relay, once: an event already queued for a relay is not queued again.
    func enqueueNostr(
        _ event: NostrEvent, post: CreatePostRequest?, relays: [NostrRelayURL], at now: Date
    ) async throws {
        let post = try post.map { String(decoding: try SpotterClient.encoder.encode($0), as: UTF8.self) }
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO nostr_events (id, json, post, created_at) VALUES (?, ?, ?, ?)",
                arguments: [event.id.rawValue, event.json, post, now.timeIntervalSince1970])
            for relay in relays {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO nostr_publications (event_id, relay) VALUES (?, ?)",
                    arguments: [event.id.rawValue, relay.rawValue])
            }
        }
    }

    /// The queued events, oldest first, with their rows; `pendingOnly` keeps those some relay still waits for.
    func nostrQueue(pendingOnly: Bool) async throws -> [NostrQueuedEvent] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT e.id, e.json, e.post, e.created_at, p.relay, p.state, p.attempts, p.message,
                        p.next_attempt_at
                    FROM nostr_events e JOIN nostr_publications p ON p.event_id = e.id
                    WHERE NOT ? OR e.id IN (SELECT event_id FROM nostr_publications WHERE state = 'pending')
                    ORDER BY e.created_at, e.id, p.relay
                    """, arguments: [pendingOnly])
            var events: [NostrQueuedEvent] = []
            for row in rows {
                guard let publication = Self.publication(row) else { continue }
                if events.last?.event.id == publication.eventID {
                    events[events.count - 1].publications.append(publication)
                    continue
                }
                guard let event = try? NostrJSON.decoder.decode(NostrEvent.self, from: Data((row[1] as String).utf8))
                else { continue }
                let post = (row[2] as String?).flatMap {
                    try? SpotterClient.decoder.decode(CreatePostRequest.self, from: Data($0.utf8))
                }
                events.append(
                    NostrQueuedEvent(
                        event: event, post: post, createdAt: Date(timeIntervalSince1970: row[3]),
                        publications: [publication]))
            }
            return events
        }
    }

    /// Records a try's result for one row.
    func recordNostr(_ publication: NostrPublication) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE nostr_publications SET state = ?, attempts = ?, message = ?, next_attempt_at = ?
                    WHERE event_id = ? AND relay = ?
                    """,
                arguments: [
                    publication.state.rawValue, publication.attempts, publication.message,
                    publication.nextAttempt?.timeIntervalSince1970, publication.eventID.rawValue,
                    publication.relay.rawValue,
                ])
        }
    }

    // MARK: Relays and settings

    func nostrRelays() async throws -> [NostrRelayURL] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT url FROM nostr_relays ORDER BY added_at, url")
                .compactMap(NostrRelayURL.init(rawValue:))
        }
    }

    /// Adds a relay; false when it was there already.
    func addNostrRelay(_ relay: NostrRelayURL, at now: Date) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO nostr_relays (url, added_at) VALUES (?, ?)",
                arguments: [relay.rawValue, now.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    /// Removes a relay; what still waits for it is not sent there. False when it was not there.
    func removeNostrRelay(_ relay: NostrRelayURL) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM nostr_relays WHERE url = ?", arguments: [relay.rawValue])
            let removed = db.changesCount > 0
            try db.execute(
                sql: "DELETE FROM nostr_publications WHERE relay = ? AND state = 'pending'",
                arguments: [relay.rawValue])
            return removed
        }
    }

    func nostrSetting(_ name: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM nostr_settings WHERE name = ?", arguments: [name])
        }
    }

    func setNostrSetting(_ name: String, _ value: String?) async throws {
        try await writer.write { db in
            if let value {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO nostr_settings (name, value) VALUES (?, ?)", arguments: [name, value])
            } else {
                try db.execute(sql: "DELETE FROM nostr_settings WHERE name = ?", arguments: [name])
            }
        }
    }

    private static func publication(_ row: Row) -> NostrPublication? {
        guard let id = NostrEventID(rawValue: row[0]), let relay = NostrRelayURL(rawValue: row[4]),
            let state = NostrPublication.State(rawValue: row[5])
        else { return nil }
        return NostrPublication(
            eventID: id, relay: relay, state: state, attempts: row[6], message: row[7],
            nextAttempt: (row[8] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}
