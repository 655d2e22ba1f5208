import Foundation
import SpotterModels

/// A new device asking one of my devices to add it (docs/encryption.md, "Approving a new device"): the server
/// carries its public keys between the two and never signs anything. `EncryptedGroups` checks the code and
/// signs on top of these calls.
///
/// ```swift
/// let waiting = try await laptop.requestDevice(CreateE2EDeviceRequest(device: myPublicKeys))
/// for request in try await phone.deviceRequests() { … }    // on another of my devices
/// ```
extension SpotterClient {
    /// Asks my devices to add this one; 409 when I have none yet (then this is my first) or its id is taken.
    public func requestDevice(
        _ request: CreateE2EDeviceRequest, idempotencyKey: String? = nil
    ) async throws -> E2EDeviceRequest {
        try await call(
            .change(
                "POST", "/api/v1/me/device-requests", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    /// My new devices waiting to be approved, oldest first.
    public func deviceRequests() async throws -> [E2EDeviceRequest] {
        let answer: E2EDeviceRequests = try await call(Call(method: "GET", path: "/api/v1/me/device-requests"))
        return answer.items
    }

    /// One of my waiting requests; 404 once it was approved, declined or ran out.
    public func deviceRequest(_ id: UUID) async throws -> E2EDeviceRequest {
        try await call(Call(method: "GET", path: "/api/v1/me/device-requests/\(UUIDText.format(id))"))
    }

    /// Declines a waiting request (or gives one up, on the device that made it).
    public func removeDeviceRequest(_ id: UUID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change("DELETE", "/api/v1/me/device-requests/\(UUIDText.format(id))", key: idempotencyKey))
    }
}
