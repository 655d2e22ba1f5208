import Crypto
import Foundation
import SpotterE2E
import SpotterModels

/// A new device's request to be added to its person's device chain (docs/encryption.md, "Approving a new
/// device"). The server cannot add a device, since it holds no device's key: it carries the new device's public
/// keys to the person's other devices, one of which signs the `add_device` after the person typed the code the
/// new device shows. Only the person's own sessions see their requests; a request lives
/// `deviceRequestLifetime`, is used once (the `add_device` that names its device deletes it), and may be
/// removed (declined, or given up) before.
extension E2EDeviceService {
    /// How long a request waits: time enough to reach another device, and a forgotten one is soon gone.
    public static let deviceRequestLifetime: TimeInterval = 15 * 60
    /// How many of a person's requests may wait at once.
    public static let maxDeviceRequests = 5
    /// The most characters (code points, as the API document counts them) a device's name has.
    static let maxDeviceName = 64

    /// Keeps a request from a new device of `account`'s, who must have a device to approve it.
    public func requestDevice(
        _ request: CreateE2EDeviceRequest, by account: AccountRecord
    ) async throws -> E2EDeviceRequest {
        let device = try Self.checked(request.device)
        guard !(try await storage.e2e.deviceStatements(of: account.id)).isEmpty else {
            throw SpotterError.conflict(
                field: "device", detail: "You have no devices yet: make this one your first instead.")
        }
        guard try await storage.e2e.device(device.id) == nil else {
            throw SpotterError.conflict(field: "device.id", detail: "That device id is taken; make a new one.")
        }
        let now = clock.now
        return try await storage.write {
            try await storage.e2e.deleteExpiredDeviceRequests(of: account.id, now: now)
            guard try await storage.e2e.deviceRequests(of: account.id, now: now).count < Self.maxDeviceRequests else {
                throw SpotterError.invalid(
                    "device",
                    "\(Self.maxDeviceRequests) new devices are waiting already: approve or decline one of them first")
            }
            let record = E2EDeviceRequestRecord(
                id: UUIDv7.make(at: now), userID: account.id, device: device, createdAt: now,
                expiresAt: now.addingTimeInterval(Self.deviceRequestLifetime))
            guard try await storage.e2e.insertDeviceRequest(record) else {
                throw SpotterError.conflict(
                    field: "device.id", detail: "That device is waiting to be approved already.")
            }
            return record.wire
        }
    }

    /// `account`'s requests that wait, oldest first.
    public func deviceRequests(of account: AccountRecord) async throws -> E2EDeviceRequests {
        E2EDeviceRequests(items: try await storage.e2e.deviceRequests(of: account.id, now: clock.now).map(\.wire))
    }

    /// One of `account`'s waiting requests; a 404 once it is approved, declined, or expired.
    public func deviceRequest(_ id: UUID, of account: AccountRecord) async throws -> E2EDeviceRequest {
        guard let found = try await deviceRequests(of: account).items.first(where: { $0.id == id }) else {
            throw Self.noSuchRequest
        }
        return found
    }

    /// Removes one of `account`'s requests: declined on another device, or given up on the new one.
    public func removeDeviceRequest(_ id: UUID, by account: AccountRecord) async throws {
        guard try await storage.e2e.deviceRequests(of: account.id, now: clock.now).contains(where: { $0.id == id }),
            try await storage.e2e.deleteDeviceRequest(id, of: account.id)
        else { throw Self.noSuchRequest }
    }

    static let noSuchRequest = SpotterError.notFound("No such device waiting: it was approved, declined, or ran out.")

    /// The request's device, each field judged: a name of one line, two P-256 points, and no recovery key (one
    /// of the person's devices makes those itself).
    static func checked(_ device: E2EDevice) throws -> E2EDevice {
        var problems: [FieldError] = []
        let name = TextInput.check(device.name, "device.name", into: &problems)
        if problems.isEmpty, !TextLength.isName(name, maxLength: maxDeviceName) {
            problems.append(FieldError(field: "device.name", detail: "must be 1 to \(maxDeviceName) characters"))
        }
        for (text, field) in [
            (device.hpkePublic, "device.hpke_public"), (device.signingPublic, "device.signing_public"),
        ]
        where !isPoint(text) {
            problems.append(
                FieldError(field: field, detail: "must be an uncompressed P-256 public key (65 bytes), base64url"))
        }
        if device.recovery {
            problems.append(
                FieldError(field: "device.recovery", detail: "must be false: your devices make recovery keys"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return device
    }

    private static func isPoint(_ text: String) -> Bool {
        guard let bytes = E2EWire.bytes(text), bytes.count == 65 else { return false }
        return (try? P256.Signing.PublicKey(x963Representation: bytes)) != nil
    }
}
