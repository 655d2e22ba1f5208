import Foundation
import GRDB
import SpotterCore
import SpotterModels
import SpotterSQL

/// `E2EStore`'s device requests on SQLite: a new device's public registration, waiting to be approved.
extension SQLiteE2EStore {
    func insertDeviceRequest(_ request: E2EDeviceRequestRecord) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.insertDeviceRequest.sqlite,
                arguments: [
                    "id": UUIDText.format(request.id), "user": request.userID.description,
                    "device": UUIDText.format(request.device.id), "name": request.device.name,
                    "hpke": request.device.hpkePublic, "signing": request.device.signingPublic,
                    "createdAt": request.createdAt.sqliteValue, "expiresAt": request.expiresAt.sqliteValue,
                ])
            return db.changesCount == 1
        }
    }

    func deviceRequests(of user: UserID, now: Date) async throws -> [E2EDeviceRequestRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: E2ESQL.deviceRequests.sqlite, arguments: ["user": user.description, "now": now.sqliteValue]
            ).compactMap(Self.request)
        }
    }

    func deleteDeviceRequest(_ id: UUID, of user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.deleteDeviceRequest.sqlite,
                arguments: ["id": UUIDText.format(id), "user": user.description])
            return db.changesCount == 1
        }
    }

    func deleteDeviceRequest(forDevice device: UUID, of user: UserID) async throws {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.deleteDeviceRequestForDevice.sqlite,
                arguments: ["device": UUIDText.format(device), "user": user.description])
        }
    }

    func deleteExpiredDeviceRequests(of user: UserID, now: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: E2ESQL.deleteExpiredDeviceRequests.sqlite,
                arguments: ["user": user.description, "now": now.sqliteValue])
        }
    }

    static func request(_ row: Row) -> E2EDeviceRequestRecord? {
        guard let id = UUIDText.parse(row[0] as String), let user = UserID(row[1] as String),
            let device = UUIDText.parse(row[2] as String)
        else { return nil }
        return E2EDeviceRequestRecord(
            id: id, userID: user,
            device: E2EDevice(id: device, name: row[3], hpkePublic: row[4], signingPublic: row[5]),
            createdAt: Date(sqliteValue: row[6]), expiresAt: Date(sqliteValue: row[7]))
    }
}
