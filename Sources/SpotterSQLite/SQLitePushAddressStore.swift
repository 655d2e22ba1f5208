import Foundation
import GRDB
import SpotterCore
import SpotterModels

/// Push addresses and known devices on SQLite.
struct SQLitePushAddressStore: PushAddressStore {
    let database: SQLiteDatabase

    func rememberDevice(_ device: String, of user: UserID, at date: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached:
                    "INSERT INTO known_devices (user_id, device, first_seen) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [user.description, device, date.sqliteValue])
            return db.changesCount == 1
        }
    }

    func addDevice(_ token: String, of user: UserID, at date: Date) async throws {
        // A token moves to whoever registered it last: a phone passed on must not keep the old owner's pushes.
        try await database.write { db in
            try db.execute(
                cached: """
                    INSERT INTO push_devices (token, user_id, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, created_at = excluded.created_at
                    """, arguments: [token, user.description, date.sqliteValue])
        }
    }

    func removeDevice(_ token: String, of user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: "DELETE FROM push_devices WHERE token = ? AND user_id = ?",
                arguments: [token, user.description])
            return db.changesCount > 0
        }
    }

    func devices(of user: UserID) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                cached: db, sql: "SELECT token FROM push_devices WHERE user_id = ? ORDER BY created_at",
                arguments: [user.description])
        }
    }

    func addWebPush(_ subscription: WebPushRegistration, of user: UserID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: """
                    INSERT INTO web_push_subscriptions (endpoint, user_id, p256dh, auth, created_at)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
                        auth = excluded.auth, created_at = excluded.created_at
                    """,
                arguments: [
                    subscription.endpoint, user.description, subscription.keys.p256dh, subscription.keys.auth,
                    date.sqliteValue,
                ])
        }
    }

    func removeWebPush(endpoint: String, of user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: "DELETE FROM web_push_subscriptions WHERE endpoint = ? AND user_id = ?",
                arguments: [endpoint, user.description])
            return db.changesCount > 0
        }
    }

    func webPushSubscriptions(of user: UserID) async throws -> [WebPushRegistration] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: "SELECT endpoint, p256dh, auth FROM web_push_subscriptions WHERE user_id = ? ORDER BY created_at",
                arguments: [user.description]
            ).map { WebPushRegistration(endpoint: $0[0], keys: .init(p256dh: $0[1], auth: $0[2])) }
        }
    }

    func prune(_ target: DeliveryTarget) async throws {
        try await database.write { db in
            switch target {
            case .apns(let token):
                try db.execute(cached: "DELETE FROM push_devices WHERE token = ?", arguments: [token])
            case .webPush(let subscription):
                try db.execute(
                    cached: "DELETE FROM web_push_subscriptions WHERE endpoint = ?", arguments: [subscription.endpoint])
            case .email:
                break  // an address is the account's own; a refused one is recorded, not removed
            }
        }
    }
}
