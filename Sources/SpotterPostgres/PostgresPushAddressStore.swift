import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels

/// Push addresses and known devices on PostgreSQL.
struct PostgresPushAddressStore: PushAddressStore {
    let database: PostgresDatabase
    let logger: Logger

    func rememberDevice(_ device: String, of user: UserID, at date: Date) async throws -> Bool {
        try await changed(
            """
            INSERT INTO known_devices (user_id, device, first_seen) VALUES (\(user.rawValue), \(device), \(date))
            ON CONFLICT DO NOTHING RETURNING 1
            """)
    }

    func addDevice(_ token: String, of user: UserID, at date: Date) async throws {
        try await database.query(
            """
            INSERT INTO push_devices (token, user_id, created_at) VALUES (\(token), \(user.rawValue), \(date))
            ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, created_at = excluded.created_at
            """, logger: logger)
    }

    func removeDevice(_ token: String, of user: UserID) async throws -> Bool {
        try await changed(
            "DELETE FROM push_devices WHERE token = \(token) AND user_id = \(user.rawValue) RETURNING 1")
    }

    func devices(of user: UserID) async throws -> [String] {
        var tokens: [String] = []
        for try await token in try await database.query(
            "SELECT token FROM push_devices WHERE user_id = \(user.rawValue) ORDER BY created_at", logger: logger
        ).decode(String.self) {
            tokens.append(token)
        }
        return tokens
    }

    func addWebPush(_ subscription: WebPushRegistration, of user: UserID, at date: Date) async throws {
        try await database.query(
            """
            INSERT INTO web_push_subscriptions (endpoint, user_id, p256dh, auth, created_at)
            VALUES (\(subscription.endpoint), \(user.rawValue), \(subscription.keys.p256dh),
                    \(subscription.keys.auth), \(date))
            ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
                auth = excluded.auth, created_at = excluded.created_at
            """, logger: logger)
    }

    func removeWebPush(endpoint: String, of user: UserID) async throws -> Bool {
        try await changed(
            "DELETE FROM web_push_subscriptions WHERE endpoint = \(endpoint) AND user_id = \(user.rawValue) RETURNING 1"
        )
    }

    func webPushSubscriptions(of user: UserID) async throws -> [WebPushRegistration] {
        var subscriptions: [WebPushRegistration] = []
        for try await (endpoint, p256dh, auth) in try await database.query(
            """
            SELECT endpoint, p256dh, auth FROM web_push_subscriptions WHERE user_id = \(user.rawValue)
            ORDER BY created_at
            """, logger: logger
        ).decode((String, String, String).self) {
            subscriptions.append(WebPushRegistration(endpoint: endpoint, keys: .init(p256dh: p256dh, auth: auth)))
        }
        return subscriptions
    }

    func prune(_ target: DeliveryTarget) async throws {
        switch target {
        case .apns(let token):
            try await database.query("DELETE FROM push_devices WHERE token = \(token)", logger: logger)
        case .webPush(let subscription):
            try await database.query(
                "DELETE FROM web_push_subscriptions WHERE endpoint = \(subscription.endpoint)", logger: logger)
        case .email:
            break
        }
    }

    private func changed(_ query: PostgresQuery) async throws -> Bool {
        try await database.changed(query, logger: logger)
    }
}
