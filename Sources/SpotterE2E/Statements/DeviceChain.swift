// SpotterE2E composes swift-crypto's primitives (ECDSA P-256 verification); no cryptography is written by hand
// here.
import Foundation

/// A device as a verified device chain knows it: its registration, and when it was added and revoked.
public struct ChainDevice: Sendable, Equatable {
    public let registration: DeviceRegistration
    /// The `at` of the statement that added it.
    public let addedAt: Int64
    /// The `at` of the statement that revoked it, if one did.
    public internal(set) var revokedAt: Int64?

    public var id: UUID { registration.id }
    public var isLive: Bool { revokedAt == nil }

    /// Whether the device could sign at `at`: not revoked, or revoked after then (by the revoker's clock).
    func wasLive(at: Int64) -> Bool { revokedAt.map { at < $0 } ?? true }
}

/// A person's device chain, every statement checked: the devices it added, which are live, and its head.
///
/// Clients remember `length` and `head` per person; a chain that comes back shorter, or whose statement at the
/// old head's place differs, was rewritten, and the client says so.
public struct VerifiedDeviceChain: Sendable, Equatable {
    public let userID: UUID
    /// Every device the chain added, in order, revoked ones included.
    public let devices: [ChainDevice]
    /// Every statement's hash, in order; the last is the head.
    public let hashes: [String]

    /// The last statement's hash.
    public var head: String { hashes.last! }
    public var length: Int { hashes.count }

    /// Whether this chain continues the one a client saw before (`length` statements ending in `head`): same
    /// statement at that place, and no shorter. A `false` means the server rewrote or hid part of the chain.
    public func extends(length: Int, head: String) -> Bool { ChainLinks.extends(hashes, length: length, head: head) }

    /// The devices to wrap epoch keys to and to accept signatures from.
    public var liveDevices: [DeviceRegistration] { devices.filter(\.isLive).map(\.registration) }

    public func device(_ id: UUID) -> ChainDevice? { devices.first { $0.id == id } }
}

/// Verifies a person's device chain (docs/encryption.md, "Devices" and the statements' table).
///
/// ```swift
/// let chain = try DeviceChain.verify(statements, userID: lou)
/// for device in chain.liveDevices { wrapped[device.id] = try EpochKeyWrap.seal(key, to: device.hpkePublic, …) }
/// ```
public enum DeviceChain {
    /// The chain's devices, or `ChainError` naming the first statement that breaks a rule:
    /// - `seq` is each statement's place and `prev` the previous one's hash (`null` at 0);
    /// - seq 0 is `add_device` signed by the device it adds;
    /// - every later statement is signed by a device live at that point (so a new device's own signature is
    ///   never enough), a device is added once, and a revoked device stays revoked;
    /// - `revoke_device` names a live device and is not signed by it, unless it is the recovery device.
    public static func verify(_ statements: [SignedStatement], userID: UUID) throws(ChainError) -> VerifiedDeviceChain {
        guard !statements.isEmpty else { throw ChainError(seq: 0, reason: .empty) }
        var devices: [ChainDevice] = []
        var hashes: [String] = []
        for (seq, statement) in statements.enumerated() {
            let previousHash = hashes.last
            func refuse(_ reason: ChainError.Reason) -> ChainError { ChainError(seq: seq, reason: reason) }
            let body = try ChainLinks.body(of: statement, seq: seq, chain: .device(user: userID), prev: previousHash)
            if seq == 0 {
                guard case .addDevice(let first) = body.kind else { throw refuse(.wrongKind(body.kind.name)) }
                guard statement.signer == first.id else { throw refuse(.notAllowed("the first device signs itself")) }
                guard statement.isSigned(by: first.signingPublic) else { throw refuse(.badSignature) }
                devices.append(ChainDevice(registration: first, addedAt: body.at))
            } else {
                guard let signer = devices.first(where: { $0.id == statement.signer }) else {
                    throw refuse(.unknownSigner(statement.signer))
                }
                guard signer.isLive else { throw refuse(.signerNotLive(signer.id)) }
                guard statement.isSigned(by: signer.registration.signingPublic) else { throw refuse(.badSignature) }
                switch body.kind {
                case .addDevice(let device):
                    guard !devices.contains(where: { $0.id == device.id }) else {
                        throw refuse(.notAllowed("device \(device.id) was already added"))
                    }
                    devices.append(ChainDevice(registration: device, addedAt: body.at))
                case .revokeDevice(let id):
                    guard let index = devices.firstIndex(where: { $0.id == id && $0.isLive }) else {
                        throw refuse(.notAllowed("device \(id) is not live"))
                    }
                    guard id != signer.id || devices[index].registration.recovery else {
                        throw refuse(.notAllowed("a device does not revoke itself, unless it is the recovery device"))
                    }
                    devices[index].revokedAt = body.at
                default:
                    throw refuse(.wrongKind(body.kind.name))
                }
            }
            hashes.append(statement.hash)
        }
        return VerifiedDeviceChain(userID: userID, devices: devices, hashes: hashes)
    }
}

/// What device and group chains check alike: the body parses, names this chain, and links to the one before.
enum ChainLinks {
    static func body(
        of statement: SignedStatement, seq: Int, chain: ChainID, prev: String?
    ) throws(ChainError)
        -> StatementBody
    {
        let body: StatementBody
        do {
            body = try statement.decodedBody()
        } catch {
            throw ChainError(seq: seq, reason: .malformedBody("\(error)"))
        }
        guard body.chain == chain else { throw ChainError(seq: seq, reason: .wrongChain(body.chain.description)) }
        guard body.seq == seq else { throw ChainError(seq: seq, reason: .wrongSeq(expected: seq, found: body.seq)) }
        guard body.prev == prev else { throw ChainError(seq: seq, reason: .brokenPrev) }
        return body
    }

    static func extends(_ hashes: [String], length: Int, head: String) -> Bool {
        length == 0 || (length <= hashes.count && hashes[length - 1] == head)
    }
}
