import Foundation
import PostgresNIO
import SpotterCore
import SpotterModels
import SpotterSQL

/// `E2EStore`'s device requests on PostgreSQL: a new device's public registration, waiting to be approved.
extension PostgresE2EStore {
    func insertDeviceRequest(_ request: E2EDeviceRequestRecord) async throws -> Bool {
        let rows = try await database.query(
            PostgresQuery(
                E2ESQL.insertDeviceRequest.postgres,
                [
                    "id": PostgresBind(request.id), "user": PostgresBind(request.userID.rawValue),
                    "device": PostgresBind(request.device.id), "name": PostgresBind(request.device.name),
                    "hpke": PostgresBind(request.device.hpkePublic),
                    "signing": PostgresBind(request.device.signingPublic),
                    "createdAt": PostgresBind(request.createdAt), "expiresAt": PostgresBind(request.expiresAt),
                ]), logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func deviceRequests(of user: UserID, now: Date) async throws -> [E2EDeviceRequestRecord] {
        var requests: [E2EDeviceRequestRecord] = []
        for try await (id, user, device, name, hpke, signing, created, expires) in try await database.query(
            PostgresQuery(
                E2ESQL.deviceRequests.postgres, ["user": PostgresBind(user.rawValue), "now": PostgresBind(now)]),
            logger: logger
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
            PostgresQuery(
                E2ESQL.deleteDeviceRequest.postgres, ["id": PostgresBind(id), "user": PostgresBind(user.rawValue)]),
            logger: logger)
        for try await _ in rows { return true }
        return false
    }

    func deleteDeviceRequest(forDevice device: UUID, of user: UserID) async throws {
        try await database.query(
            PostgresQuery(
                E2ESQL.deleteDeviceRequestForDevice.postgres,
                ["device": PostgresBind(device), "user": PostgresBind(user.rawValue)]),
            logger: logger)
    }

    func deleteExpiredDeviceRequests(of user: UserID, now: Date) async throws {
        try await database.query(
            PostgresQuery(
                E2ESQL.deleteExpiredDeviceRequests.postgres,
                ["user": PostgresBind(user.rawValue), "now": PostgresBind(now)]),
            logger: logger)
    }
}
