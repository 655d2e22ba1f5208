import Foundation
import SpotterE2E
import SpotterModels

/// A person's devices: the first, one approved by another, one revoked.
///
/// ```swift
/// // The first device:
/// try await phone.registerDevice(name: "Ana's phone")
/// // A second one hands its public registration to the first itself (a QR code, say), which approves it and
/// // wraps it the groups' keys; through the server, with a code, see `requestApproval`:
/// let registration = try await laptop.requestDevice(name: "Ana's laptop")
/// try await phone.approveDevice(registration)
/// ```
extension EncryptedGroups {
    /// Makes this device's keys and registers it as the person's first device (`add_device` at seq 0, signed
    /// by itself). A person who has devices approves a new one from one of them (`requestDevice`).
    @discardableResult
    public func registerDevice(name: String) async throws -> SpotterE2E.DeviceRegistration {
        let user = try await me()
        guard try await readDeviceChain(of: user) == nil else { throw EncryptedGroupsError.alreadyHasDevices }
        let identity = DeviceIdentity(userID: user, deviceID: UUIDv7.make(), name: name, keys: DeviceKeys())
        try await save(identity)
        let statement = try identity.signer.sign(
            .addDevice(identity.registration), on: .device(user: user.rawValue), after: nil, at: at)
        try await client.appendDeviceStatement(statement.wire)
        return identity.registration
    }

    /// On a new device of a person who has devices: makes and keeps its keys, and answers its public
    /// registration, for one of their devices to approve (`approveDevice`) when it reaches that device by a way
    /// the server has no part in (a QR code shown and scanned). Until then it holds no keys.
    public func requestDevice(name: String) async throws -> SpotterE2E.DeviceRegistration {
        let user = try await me()
        if let identity = try await store.load(for: user) { return identity.registration }
        let identity = DeviceIdentity(userID: user, deviceID: UUIDv7.make(), name: name, keys: DeviceKeys())
        try await save(identity)
        return identity.registration
    }

    /// On a device already registered: adds another of the person's devices to their chain, signed by this
    /// one, and wraps it every epoch key this device holds. `registration` must come from the new device
    /// itself, not through the server (which could put keys of its own in it): `approveDevice(_:code:)` is the
    /// way through the server.
    public func approveDevice(_ registration: SpotterE2E.DeviceRegistration) async throws {
        let (identity, _, last) = try await liveIdentity()
        let statement = try identity.signer.sign(
            .addDevice(registration), on: .device(user: identity.userID.rawValue), after: last, at: at)
        try await client.appendDeviceStatement(statement.wire)
        try await shareKeysWithMyDevices()
    }

    /// Revokes one of my devices (lost, sold), signed by this one. Every group it could read then has
    /// `rotation_due`, and an admin's `reconcile` makes the next epoch without it.
    public func revokeDevice(_ id: UUID) async throws {
        let (identity, chain, last) = try await liveIdentity()
        guard id != identity.deviceID, chain.device(id)?.isLive == true else {
            throw EncryptedGroupsError.deviceNotLive(id)
        }
        let statement = try identity.signer.sign(
            .revokeDevice(id), on: .device(user: identity.userID.rawValue), after: last, at: at)
        try await client.appendDeviceStatement(statement.wire)
    }

    /// My live devices, by my verified chain.
    public func myDevices() async throws -> [SpotterE2E.DeviceRegistration] {
        try await readDeviceChain(of: try await me())?.chain.liveDevices ?? []
    }

    // MARK: Recovery

    /// Makes a recovery key: registers a recovery device (signed by this one), uploads its keys sealed under
    /// 32 random bytes, wraps every group's keys to it, and answers the bytes as 24 words, shown once. An
    /// older recovery key is revoked.
    ///
    /// The recovery device is one of the person's devices, so their safety number changes (say so first:
    /// `SafetyNumberChange.notice`); the answer has it before and after, for the people they share encrypted
    /// groups with will see the new one.
    public func makeRecoveryKey() async throws -> RecoveryKey {
        let (identity, chain, seenLast) = try await liveIdentity()
        let before = SafetyNumber(userID: identity.userID.rawValue, devices: chain.liveDevices)
        var last = seenLast
        let user = identity.userID
        let recoveryKeys = DeviceKeys()
        let recovery = recoveryKeys.registration(id: UUIDv7.make(), name: "Recovery key", recovery: true)
        let secret = RecoverySecret()
        let kit = try RecoveryKit.seal(recoveryKeys, secret: secret, userID: user.rawValue)
        try await client.putRecoveryKit(E2ERecoveryKit(kit: Base64URL.encode(kit)))
        last = try identity.signer.sign(.addDevice(recovery), on: .device(user: user.rawValue), after: last, at: at)
        try await client.appendDeviceStatement(last.wire)
        for old in chain.liveDevices where old.recovery {
            last = try identity.signer.sign(
                .revokeDevice(old.id), on: .device(user: user.rawValue), after: last, at: at)
            try await client.appendDeviceStatement(last.wire)
        }
        try await shareKeysWithMyDevices()
        return RecoveryKey(
            words: secret.words, safetyNumber: SafetyNumberChange(before: before, after: try await mySafetyNumber()))
    }

    /// On a new device, with nothing but the 24 words: opens the recovery kit, registers this device signed
    /// by the recovery key, and wraps to it every epoch key the recovery device holds.
    @discardableResult
    public func restore(words: String, deviceName: String) async throws -> SpotterE2E.DeviceRegistration {
        let user = try await me()
        let secret = try RecoverySecret(words: words)
        guard let kit = Base64URL.strict(try await client.recoveryKit().kit) else {
            throw EncryptedGroupsError.malformed("the recovery kit is not base64url")
        }
        let recoveryKeys = try RecoveryKit.open(kit, secret: secret, userID: user.rawValue)
        guard let read = try await readDeviceChain(of: user),
            let recovery = read.chain.liveDevices.first(where: {
                $0.recovery && $0.signingPublic.x963Representation == recoveryKeys.signingPublic
                    && $0.hpkePublic.x963Representation == recoveryKeys.hpkePublic
            })
        else { throw EncryptedGroupsError.recoveryKeyNotInChain }
        let identity = DeviceIdentity(userID: user, deviceID: UUIDv7.make(), name: deviceName, keys: DeviceKeys())
        try await save(identity)
        let statement = try StatementSigner(deviceID: recovery.id, key: recoveryKeys.signing).sign(
            .addDevice(identity.registration), on: .device(user: user.rawValue), after: read.last, at: at)
        try await client.appendDeviceStatement(statement.wire)
        for group in try await myEncryptedGroups() {
            let recipients = try await readGroup(group).recipients
            let device = try recipients.device(identity.deviceID)  // verified in my chain, and I am a member
            var keys: [E2EEpochKey] = []
            for wrapped in try await client.epochKeys(in: group, device: recovery.id) {
                guard wrapped.epoch >= 0, let bytes = Base64URL.strict(wrapped.key),
                    let key = try? EpochKeyWrap.open(
                        bytes, with: recoveryKeys.hpke, groupID: group.rawValue, epoch: UInt32(wrapped.epoch))
                else { continue }
                remember(key, epoch: wrapped.epoch, in: group)
                keys += try recipients.wrap(key, epoch: wrapped.epoch, to: [device.id]).map {
                    E2EEpochKey(deviceID: $0.deviceID, epoch: wrapped.epoch, key: $0.key)
                }
            }
            if !keys.isEmpty { try await client.addEpochKeys(E2EEpochKeys(keys: keys), in: group) }
        }
        return identity.registration
    }

    // MARK: Sharing keys with my own devices

    /// In every encrypted group of mine, wraps the epoch keys this device holds to my other live devices that
    /// lack them.
    func shareKeysWithMyDevices() async throws {
        for group in try await myEncryptedGroups() {
            try await shareKeysWithMyDevices(in: group, read: try await readGroup(group))
        }
    }

    /// Wraps the epoch keys this device holds in `group` to my other live devices that lack them; answers how
    /// many keys were wrapped.
    @discardableResult
    func shareKeysWithMyDevices(in group: GroupID, read: GroupRead) async throws -> Int {
        let identity = try await identity()
        let mine = try read.recipients.devices(of: identity.userID).filter { $0.id != identity.deviceID }
        let held = try await epochKeys(group, refresh: true)
        var keys: [E2EEpochKey] = []
        for device in mine {
            let has = Set(try await client.epochKeys(in: group, device: device.id).map(\.epoch))
            for (epoch, key) in held where !has.contains(epoch) {
                keys += try read.recipients.wrap(key, epoch: epoch, to: [device.id]).map {
                    E2EEpochKey(deviceID: $0.deviceID, epoch: epoch, key: $0.key)
                }
            }
        }
        if !keys.isEmpty { try await client.addEpochKeys(E2EEpochKeys(keys: keys), in: group) }
        return keys.count
    }
}

/// A recovery key just made: its 24 words, shown once, and the person's safety number before and after.
public struct RecoveryKey: Sendable, Equatable {
    public let words: [String]
    public let safetyNumber: SafetyNumberChange
}
