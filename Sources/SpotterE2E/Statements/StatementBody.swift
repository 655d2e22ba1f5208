// SpotterE2E composes swift-crypto's primitives; no cryptography is written by hand here.
import Foundation
import SpotterModels

/// Which chain a statement belongs to: `"device:<user id>"` or `"group:<group id>"`.
public enum ChainID: Sendable, Hashable, CustomStringConvertible {
    case device(user: UUID)
    case group(UUID)

    public var description: String {
        switch self {
        case .device(let user): "device:\(UUIDText.format(user))"
        case .group(let group): "group:\(UUIDText.format(group))"
        }
    }

    init?(_ text: String) {
        if text.hasPrefix("device:"), let user = WireCoding.uuid(String(text.dropFirst(7))) {
            self = .device(user: user)
        } else if text.hasPrefix("group:"), let group = WireCoding.uuid(String(text.dropFirst(6))) {
            self = .group(group)
        } else {
            return nil
        }
    }
}

/// A member's role in a group.
public enum GroupRole: String, Sendable, Codable, Hashable {
    case member, admin, owner
}

/// What a statement says, with its kind's fields (docs/encryption.md's table).
public enum StatementKind: Sendable, Equatable {
    /// Device chain: adds a device (seq 0: the first, signed by itself).
    case addDevice(DeviceRegistration)
    /// Device chain: revokes a device.
    case revokeDevice(UUID)
    /// Group chain, seq 0: `user` makes the group and owns it; `history` says whether new members get older epochs.
    case create(user: UUID, history: Bool)
    /// Group chain: adds `user` as `member` or `admin`.
    case add(user: UUID, role: GroupRole)
    /// Group chain: removes `user` (or `user` leaves).
    case remove(user: UUID)
    /// Group chain: changes `user`'s role; `owner` hands the group over.
    case role(user: UUID, role: GroupRole)

    /// The `kind` field's value.
    public var name: String {
        switch self {
        case .addDevice: "add_device"
        case .revokeDevice: "revoke_device"
        case .create: "create"
        case .add: "add"
        case .remove: "remove"
        case .role: "role"
        }
    }
}

/// A statement's body: `{v: 1, chain, seq, prev, at, kind, …the kind's fields}`, snake_case keys.
///
/// Hand-written `Codable`, because the kind decides the other fields; `prev` is written as `null` at seq 0
/// rather than left out.
public struct StatementBody: Sendable, Equatable, Codable {
    public var chain: ChainID
    public var seq: Int
    /// The previous statement's hash; `nil` (`null`) for seq 0.
    public var prev: String?
    /// Seconds since 1970, by the signer's clock.
    public var at: Int64
    public var kind: StatementKind

    public init(chain: ChainID, seq: Int, prev: String?, at: Int64, kind: StatementKind) {
        self.chain = chain
        self.seq = seq
        self.prev = prev
        self.at = at
        self.kind = kind
    }

    /// Sorted keys and unescaped slashes: any encoding verifies (the bytes are signed), this one is stable.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    enum CodingKeys: String, CodingKey {
        case v, chain, seq, prev, at, kind, device, user, history, role
        case deviceID = "device_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(Int.self, forKey: .v) == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "not version 1")
        }
        let chainText = try container.decode(String.self, forKey: .chain)
        guard let chain = ChainID(chainText) else {
            throw DecodingError.dataCorruptedError(forKey: .chain, in: container, debugDescription: "bad chain")
        }
        self.chain = chain
        seq = try container.decode(Int.self, forKey: .seq)
        prev = try container.decodeNil(forKey: .prev) ? nil : try container.decode(String.self, forKey: .prev)
        at = try container.decode(Int64.self, forKey: .at)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "add_device":
            self.kind = .addDevice(try container.decode(DeviceRegistration.self, forKey: .device))
        case "revoke_device":
            self.kind = .revokeDevice(try WireCoding.decodeUUID(container, .deviceID))
        case "create":
            self.kind = .create(
                user: try WireCoding.decodeUUID(container, .user),
                history: try container.decode(Bool.self, forKey: .history))
        case "add":
            self.kind = .add(
                user: try WireCoding.decodeUUID(container, .user),
                role: try container.decode(GroupRole.self, forKey: .role))
        case "remove":
            self.kind = .remove(user: try WireCoding.decodeUUID(container, .user))
        case "role":
            self.kind = .role(
                user: try WireCoding.decodeUUID(container, .user),
                role: try container.decode(GroupRole.self, forKey: .role))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown kind \(kind)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .v)
        try container.encode(chain.description, forKey: .chain)
        try container.encode(seq, forKey: .seq)
        try container.encode(prev, forKey: .prev)  // `null` at seq 0
        try container.encode(at, forKey: .at)
        try container.encode(kind.name, forKey: .kind)
        switch kind {
        case .addDevice(let device):
            try container.encode(device, forKey: .device)
        case .revokeDevice(let id):
            try container.encode(UUIDText.format(id), forKey: .deviceID)
        case .create(let user, let history):
            try container.encode(UUIDText.format(user), forKey: .user)
            try container.encode(history, forKey: .history)
        case .add(let user, let role), .role(let user, let role):
            try container.encode(UUIDText.format(user), forKey: .user)
            try container.encode(role, forKey: .role)
        case .remove(let user):
            try container.encode(UUIDText.format(user), forKey: .user)
        }
    }
}
