import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels

/// `E2EStore`'s device requests on PostgreSQL: a new device's public registration, waiting to be approved.
extension PostgresE2EStore {
    static let requestColumns = "id, user_id, device_id, name, hpke_public, signing_public, created_at, expires_at"

    func insertDeviceRequest(_ request: E2EDeviceRequestRecord) async throws -> Bool {
        let rows = try await database.query(
            """
            INSERT INTO e2e_device_requests (\(unescaped: Self.requestColumns))
            VALUES (\(request.id), \(request.userID.rawValue), \(request.device.id), \(request.device.name),
                    \(request.device.hpkePublic), \(request.device.signingPublic), \(request.createdAt),
                    \(request.expiresAt))
            ON CONFLICT (device_id) DO NOTHING
            RETURNING 1
            """, logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func deviceRequests(of user: UserID, now: Date) async throws -> [E2EDeviceRequestRecord] {
        var requests: [E2EDeviceRequestRecord] = []
        for try await (id, user, device, name, hpke, signing, created, expires) in try await database.query(
            """
            SELECT \(unescaped: Self.requestColumns) FROM e2e_device_requests
            WHERE user_id = \(user.rawValue) AND expires_at > \(now) ORDER BY created_at, id
            """, logger: logger
        ).decode((UUID, UUID, UUID, String, String, String, Date, Date).self) {
            requests.append(
                E2EDeviceRequestRecord(
                    id: id, userID: UserID(rawValue: user),
                    device: E2EDevice(id: device, name: name, hpkePublic: hpke, signingPublic: signing),
                    createdAt: created, expiresAt: expires))
        }
        return requests
    }

    func deleteDeviceRequest(_ id: UUID, of user: UserID) async throws -> Bool {
        let rows = try await database.query(
            "DELETE FROM e2e_device_requests WHERE id = \(id) AND user_id = \(user.rawValue) RETURNING 1",
            logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func deleteDeviceRequest(forDevice device: UUID, of user: UserID) async throws {
        try await database.query(
            "DELETE FROM e2e_device_requests WHERE device_id = \(device) AND user_id = \(user.rawValue)",
            logger: logger)
    }

    func deleteExpiredDeviceRequests(of user: UserID, now: Date) async throws {
        try await database.query(
            "DELETE FROM e2e_device_requests WHERE user_id = \(user.rawValue) AND expires_at <= \(now)",
            logger: logger)
    }
}
