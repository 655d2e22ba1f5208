import Foundation

// A new device asking one of its person's devices to add it (docs/encryption.md, "Approving a new device"). The
// server only carries the public keys from one to the other; the device that approves signs the `add_device`.

/// A device's public registration as an `add_device` statement carries it: `{id, name, hpke_public,
/// signing_public, recovery}`, the keys base64url of their 65-byte points.
public struct E2EDevice: Codable, Sendable, Equatable, Hashable {
    public var id: UUID
    public var name: String
    public var hpkePublic: String
    public var signingPublic: String
    public var recovery: Bool

    public init(id: UUID, name: String, hpkePublic: String, signingPublic: String, recovery: Bool = false) {
        self.id = id
        self.name = name
        self.hpkePublic = hpkePublic
        self.signingPublic = signingPublic
        self.recovery = recovery
    }

    enum CodingKeys: String, CodingKey {
        case id, name, recovery
        case hpkePublic = "hpke_public"
        case signingPublic = "signing_public"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UUIDText.format(id), forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(hpkePublic, forKey: .hpkePublic)
        try container.encode(signingPublic, forKey: .signingPublic)
        try container.encode(recovery, forKey: .recovery)
    }
}

/// `POST /me/device-requests`: this device, waiting to be approved by another of mine.
public struct CreateE2EDeviceRequest: Codable, Sendable, Equatable {
    public var device: E2EDevice

    public init(device: E2EDevice) { self.device = device }
}

/// A device waiting for one of its person's devices to approve it, until `expiresAt`. Only that person's own
/// sessions see it.
public struct E2EDeviceRequest: Codable, Sendable, Equatable, Hashable {
    public var id: UUID
    public var device: E2EDevice
    public var createdAt: Date
    public var expiresAt: Date

    public init(id: UUID, device: E2EDevice, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.device = device
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id, device
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UUIDText.format(id), forKey: .id)
        try container.encode(device, forKey: .device)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(expiresAt, forKey: .expiresAt)
    }
}

/// `GET /me/device-requests`: the requests waiting, oldest first (a few at most, so not paged).
public struct E2EDeviceRequests: Codable, Sendable, Equatable {
    public var items: [E2EDeviceRequest]

    public init(items: [E2EDeviceRequest]) { self.items = items }
}
