import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// Push addresses and known devices on SQLite.
struct SQLitePushAddressStore: PushAddressStore {
    let database: SQLiteDatabase

    func rememberDevice(_ device: String, of user: UserID, at date: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: PushAddressSQL.rememberDevice.sqlite,
                arguments: ["user": user.description, "device": device, "at": date.sqliteValue])
            return db.changesCount == 1
        }
    }

    func addDevice(_ token: String, of user: UserID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: PushAddressSQL.addDevice.sqlite,
                arguments: ["token": token, "user": user.description, "at": date.sqliteValue])
        }
    }

    func removeDevice(_ token: String, of user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: PushAddressSQL.removeDevice.sqlite, arguments: ["token": token, "user": user.description])
            return db.changesCount > 0
        }
    }

    func markInApp(_ users: [UserID], until: Date) async throws {
        try await database.write { db in
            for user in users {
                try db.execute(
                    cached: PushAddressSQL.markInApp.sqlite,
                    arguments: ["user": user.description, "until": until.sqliteValue])
            }
        }
    }

    func leftApp(_ user: UserID) async throws {
        try await database.write { db in
            try db.execute(cached: PushAddressSQL.leftApp.sqlite, arguments: ["user": user.description])
        }
    }

    func isInApp(_ user: UserID, at date: Date) async throws -> Bool {
        try await database.read { db in
            try Int.fetchOne(
                cached: db, sql: PushAddressSQL.isInApp.sqlite,
                arguments: ["user": user.description, "at": date.sqliteValue]) != nil
        }
    }

    func devices(of user: UserID) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                cached: db, sql: PushAddressSQL.devices.sqlite, arguments: ["user": user.description])
        }
    }

    func addWebPush(_ subscription: WebPushRegistration, of user: UserID, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                cached: PushAddressSQL.addWebPush.sqlite,
                arguments: [
                    "endpoint": subscription.endpoint, "user": user.description, "p256dh": subscription.keys.p256dh,
                    "auth": subscription.keys.auth, "at": date.sqliteValue,
                ])
        }
    }

    func removeWebPush(endpoint: String, of user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                cached: PushAddressSQL.removeWebPush.sqlite,
                arguments: ["endpoint": endpoint, "user": user.description])
            return db.changesCount > 0
        }
    }

    func webPushSubscriptions(of user: UserID) async throws -> [WebPushRegistration] {
        try await database.read { db in
            try Row.fetchAll(
                cached: db,
                sql: PushAddressSQL.webPushSubscriptions.sqlite, arguments: ["user": user.description]
            ).map { WebPushRegistration(endpoint: $0[0], keys: .init(p256dh: $0[1], auth: $0[2])) }
        }
    }

    func prune(_ target: DeliveryTarget) async throws {
        try await database.write { db in
            switch target {
            case .apns(let token):
                try db.execute(cached: PushAddressSQL.pruneDevice.sqlite, arguments: ["token": token])
            case .webPush(let subscription):
                try db.execute(
                    cached: PushAddressSQL.pruneWebPush.sqlite, arguments: ["endpoint": subscription.endpoint])
            case .email:
                break  // an address is the account's own; a refused one is recorded, not removed
            }
        }
    }
}
