import Foundation
import Logging
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// Push addresses and known devices on PostgreSQL.
struct PostgresPushAddressStore: PushAddressStore {
    let database: PostgresDatabase
    let logger: Logger

    func rememberDevice(_ device: String, of user: UserID, at date: Date) async throws -> Bool {
        try await changed(
            PostgresQuery(
                PushAddressSQL.rememberDevice.postgres,
                ["user": PostgresBind(user.rawValue), "device": PostgresBind(device), "at": PostgresBind(date)]))
    }

    func addDevice(_ token: String, of user: UserID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                PushAddressSQL.addDevice.postgres,
                ["token": PostgresBind(token), "user": PostgresBind(user.rawValue), "at": PostgresBind(date)]),
            logger: logger)
    }

    func removeDevice(_ token: String, of user: UserID) async throws -> Bool {
        try await changed(
            PostgresQuery(
                PushAddressSQL.removeDevice.postgres,
                ["token": PostgresBind(token), "user": PostgresBind(user.rawValue)]
            ))
    }

    func markInApp(_ users: [UserID], until: Date) async throws {
        try await database.withTransaction(logger: logger) { session in
            for user in users {
                try await session.query(
                    PostgresQuery(
                        PushAddressSQL.markInApp.postgres,
                        ["user": PostgresBind(user.rawValue), "until": PostgresBind(until)]),
                    logger: logger)
            }
        }
    }

    func leftApp(_ user: UserID) async throws {
        try await database.query(
            PostgresQuery(PushAddressSQL.leftApp.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger)
    }

    func isInApp(_ user: UserID, at date: Date) async throws -> Bool {
        var found = false
        for try await _ in try await database.query(
            PostgresQuery(
                PushAddressSQL.isInApp.postgres, ["user": PostgresBind(user.rawValue), "at": PostgresBind(date)]),
            logger: logger
        ).decode(Int.self) {
            found = true
        }
        return found
    }

    func devices(of user: UserID) async throws -> [String] {
        var tokens: [String] = []
        for try await token in try await database.query(
            PostgresQuery(PushAddressSQL.devices.postgres, ["user": PostgresBind(user.rawValue)]), logger: logger
        ).decode(String.self) {
            tokens.append(token)
        }
        return tokens
    }

    func addWebPush(_ subscription: WebPushRegistration, of user: UserID, at date: Date) async throws {
        try await database.query(
            PostgresQuery(
                PushAddressSQL.addWebPush.postgres,
                [
                    "endpoint": PostgresBind(subscription.endpoint), "user": PostgresBind(user.rawValue),
                    "p256dh": PostgresBind(subscription.keys.p256dh), "auth": PostgresBind(subscription.keys.auth),
                    "at": PostgresBind(date),
                ]), logger: logger)
    }

    func removeWebPush(endpoint: String, of user: UserID) async throws -> Bool {
        try await changed(
            PostgresQuery(
                PushAddressSQL.removeWebPush.postgres,
                ["endpoint": PostgresBind(endpoint), "user": PostgresBind(user.rawValue)]))
    }

    func webPushSubscriptions(of user: UserID) async throws -> [WebPushRegistration] {
        var subscriptions: [WebPushRegistration] = []
        for try await (endpoint, p256dh, auth) in try await database.query(
            PostgresQuery(PushAddressSQL.webPushSubscriptions.postgres, ["user": PostgresBind(user.rawValue)]),
            logger: logger
        ).decode((String, String, String).self) {
            subscriptions.append(WebPushRegistration(endpoint: endpoint, keys: .init(p256dh: p256dh, auth: auth)))
        }
        return subscriptions
    }

    func prune(_ target: DeliveryTarget) async throws {
        switch target {
        case .apns(let token):
            try await database.query(
                PostgresQuery(PushAddressSQL.pruneDevice.postgres, ["token": PostgresBind(token)]), logger: logger)
        case .webPush(let subscription):
            try await database.query(
                PostgresQuery(PushAddressSQL.pruneWebPush.postgres, ["endpoint": PostgresBind(subscription.endpoint)]),
                logger: logger)
        case .email:
            break
        }
    }

    private func changed(_ query: PostgresQuery) async throws -> Bool {
        try await database.changed(query, logger: logger)
    }
}
