import Foundation
import GRDB
import SpotterCore
import SpotterModels

/// `E2EStore`'s device requests on SQLite: a new device's public registration, waiting to be approved.
extension SQLiteE2EStore {
    static let requestColumns = "id, user_id, device_id, name, hpke_public, signing_public, created_at, expires_at"

    func insertDeviceRequest(_ request: E2EDeviceRequestRecord) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO e2e_device_requests (\(Self.requestColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (device_id) DO NOTHING
                    """,
                arguments: [
                    UUIDText.format(request.id), request.userID.description, UUIDText.format(request.device.id),
                    request.device.name, request.device.hpkePublic, request.device.signingPublic,
                    request.createdAt.sqliteValue, request.expiresAt.sqliteValue,
                ])
            return db.changesCount == 1
        }
    }

    func deviceRequests(of user: UserID, now: Date) async throws -> [E2EDeviceRequestRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.requestColumns) FROM e2e_device_requests
                    WHERE user_id = ? AND expires_at > ? ORDER BY created_at, id
                    """,
                arguments: [user.description, now.sqliteValue]
            ).compactMap(Self.request)
        }
    }

    func deleteDeviceRequest(_ id: UUID, of user: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM e2e_device_requests WHERE id = ? AND user_id = ?",
                arguments: [UUIDText.format(id), user.description])
            return db.changesCount == 1
        }
    }

    func deleteDeviceRequest(forDevice device: UUID, of user: UserID) async throws {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM e2e_device_requests WHERE device_id = ? AND user_id = ?",
                arguments: [UUIDText.format(device), user.description])
        }
    }

    func deleteExpiredDeviceRequests(of user: UserID, now: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM e2e_device_requests WHERE user_id = ? AND expires_at <= ?",
                arguments: [user.description, now.sqliteValue])
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
