import Foundation
import SpotterE2E
import SpotterModels

/// The devices an epoch key may be wrapped to: the live devices, by their verified device chains, of the
/// members of a verified group chain, and nothing else.
///
/// The "ghost device" rule: the server names devices (a new device's id, a member's list), but a key goes only
/// to a device this device has verified itself. Any other id is refused with
/// `EncryptedGroupsError.ghostDevice`, whoever asks.
///
/// ```swift
/// let recipients = try KeyRecipients(group: verifiedGroup, deviceChains: chains)
/// let keys = try recipients.wrapToAll(epochKey, epoch: 3)   // [E2EDeviceKey] for POST …/e2e/chain
/// ```
public struct KeyRecipients: Sendable {
    public let group: VerifiedGroup
    private let chains: [UUID: VerifiedDeviceChain]

    /// - Parameter deviceChains: verified chains; those of people who are not members are ignored.
    public init(group: VerifiedGroup, deviceChains: [VerifiedDeviceChain]) {
        self.group = group
        var chains: [UUID: VerifiedDeviceChain] = [:]
        for chain in deviceChains where group.role(of: chain.userID) != nil { chains[chain.userID] = chain }
        self.chains = chains
    }

    /// A member's live devices (the recovery device too: it reads what they read).
    public func devices(of user: UserID) throws(EncryptedGroupsError) -> [SpotterE2E.DeviceRegistration] {
        guard group.role(of: user.rawValue) != nil else { throw .notAMember(user) }
        return chains[user.rawValue]?.liveDevices ?? []
    }

    /// Every member's live devices.
    public var allDevices: [SpotterE2E.DeviceRegistration] {
        group.members.flatMap { chains[$0.userID]?.liveDevices ?? [] }
    }

    /// The device with this id, if it is a live device of a member by a verified chain; else refused.
    public func device(_ id: UUID) throws(EncryptedGroupsError) -> SpotterE2E.DeviceRegistration {
        for member in group.members {
            if let device = chains[member.userID]?.liveDevices.first(where: { $0.id == id }) { return device }
        }
        throw .ghostDevice(id)
    }

    /// Wraps the epoch key to each device named, refusing the whole lot if one is a ghost.
    public func wrap(_ epochKey: EpochKey, epoch: Int, to deviceIDs: [UUID]) throws -> [E2EDeviceKey] {
        let devices = try deviceIDs.map { id throws(EncryptedGroupsError) in try device(id) }
        return try devices.map { device in
            E2EDeviceKey(
                deviceID: device.id,
                key: Base64URL.encode(
                    try EpochKeyWrap.seal(
                        epochKey, to: device.hpkePublic, groupID: group.groupID, epoch: UInt32(epoch))))
        }
    }

    /// Wraps the epoch key to every member's live devices.
    public func wrapToAll(_ epochKey: EpochKey, epoch: Int) throws -> [E2EDeviceKey] {
        try wrap(epochKey, epoch: epoch, to: allDevices.map(\.id))
    }
}
