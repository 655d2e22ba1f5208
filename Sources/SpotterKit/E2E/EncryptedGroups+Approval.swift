import Foundation
import SpotterE2E
import SpotterModels

/// A new device approved by one the person already has (docs/encryption.md, "Approving a new device"), as
/// Signal and Keybase do it: the new device asks through the server and shows a code; on an existing device the
/// person types that code, which is worked out again from the keys the server handed over, so a server that put
/// keys of its own in the request gets nothing signed.
///
/// ```swift
/// // On the new laptop:
/// guard case .waiting(let request) = try await laptop.requestApproval(name: "Ana's laptop") else { return }
/// show(request.code)                                    // "K7QF-3MZX-9HDT"
/// // On her phone, where she types what the laptop shows:
/// show(SafetyNumberChange.notice)                      // before: her safety number changes
/// let approval = try await phone.approveDevice(code: "K7QF-3MZX-9HDT")
/// show(approval.safetyNumber.summary)                   // after: from which to which
/// // The laptop notices, and reads her groups:
/// _ = try await laptop.waitForApproval()
/// ```
extension EncryptedGroups {
    // MARK: On the new device

    /// Asks the person's devices to add this one: makes and keeps its keys (once), sends its public keys, and
    /// answers the request to show, with its code. Asked again, it answers the request still waiting, or makes
    /// a new one for the same keys after one was declined or ran out; `.approved` when this device is in.
    /// A person with no device yet makes this one their first instead (`registerDevice`).
    public func requestApproval(name: String) async throws -> DeviceApprovalStatus {
        let user = try await me()
        guard let read = try await readDeviceChain(of: user) else { throw EncryptedGroupsError.noDevicesYet }
        var stored = try await store.load(for: user)
        if let known = stored, let device = read.chain.device(known.deviceID) {
            if device.isLive, device.registration == known.registration { return .approved(known.registration) }
            stored = nil  // revoked, or its id signed in with other keys: these keys are done with
        }
        guard let identity = stored else {
            let fresh = DeviceIdentity(userID: user, deviceID: UUIDv7.make(), name: name, keys: DeviceKeys())
            try await save(fresh)
            return .waiting(try await ask(for: fresh))
        }
        if let waiting = try await client.deviceRequests().first(where: { $0.device.id == identity.deviceID }) {
            return .waiting(DeviceApprovalRequest(waiting, identity: identity))
        }
        return .waiting(try await ask(for: identity))
    }

    /// Whether this device was added: `.approved` once its keys are live in the person's verified chain (its
    /// groups' keys then open, as another device wraps them to it), `.waiting` while its request waits, `.gone`
    /// when the request was declined or ran out (`requestApproval` asks again).
    public func approvalStatus() async throws -> DeviceApprovalStatus {
        let identity = try await identity()
        // The requests first: an approval deletes the request and then shows in the chain, never the other way.
        let waiting = try await client.deviceRequests().first { $0.device.id == identity.deviceID }
        if let read = try await readDeviceChain(of: identity.userID), let device = read.chain.device(identity.deviceID),
            device.isLive, device.registration == identity.registration
        {
            return .approved(identity.registration)
        }
        return waiting.map { .waiting(DeviceApprovalRequest($0, identity: identity)) } ?? .gone
    }

    /// Asks `approvalStatus` every `interval` until the request is no longer waiting (it runs out after
    /// `E2EDeviceService.deviceRequestLifetime`, fifteen minutes); the task's cancellation stops it.
    public func waitForApproval(every interval: Duration = .seconds(2)) async throws -> DeviceApprovalStatus {
        while true {
            let status = try await approvalStatus()
            guard case .waiting = status else { return status }
            try await Task.sleep(for: interval)
        }
    }

    private func ask(for identity: DeviceIdentity) async throws -> DeviceApprovalRequest {
        let made = try await client.requestDevice(CreateE2EDeviceRequest(device: identity.registration.wire))
        return DeviceApprovalRequest(made, identity: identity)
    }

    // MARK: On a device already approved

    /// The person's new devices waiting to be approved, oldest first.
    public func waitingDevices() async throws -> [E2EDeviceRequest] {
        try await client.deviceRequests()
    }

    /// Approves the waiting device whose code the person typed (read off the new device): signs its
    /// `add_device` with this device and wraps it every epoch key this device holds. Nothing is signed when no
    /// waiting device has that code (`wrongCode`), as when the server put other keys in a request.
    @discardableResult
    public func approveDevice(code typed: String) async throws -> DeviceApproval {
        guard let code = DeviceCode(typed: typed) else { throw EncryptedGroupsError.unreadableCode }
        let user = try await me()
        for request in try await client.deviceRequests() {
            if let registration = try? request.device.registration,
                code == DeviceCode(userID: user.rawValue, device: registration)
            {
                return try await approveDevice(request, code: typed)
            }
        }
        throw EncryptedGroupsError.wrongCode
    }

    /// Approves one waiting device, if `typed` is the code its keys give: this device signs its `add_device`
    /// and wraps it every epoch key it holds of the person's encrypted groups. Another code signs nothing
    /// (`wrongCode`). The person's safety number changes, as the answer says, and the people they share
    /// encrypted groups with see the new one.
    @discardableResult
    public func approveDevice(_ request: E2EDeviceRequest, code typed: String) async throws -> DeviceApproval {
        guard let code = DeviceCode(typed: typed) else { throw EncryptedGroupsError.unreadableCode }
        let registration: SpotterE2E.DeviceRegistration
        do { registration = try request.device.registration } catch {
            throw EncryptedGroupsError.malformed("the waiting device's keys")
        }
        let (identity, chain, last) = try await liveIdentity()
        guard !registration.recovery, code == DeviceCode(userID: identity.userID.rawValue, device: registration)
        else { throw EncryptedGroupsError.wrongCode }
        let before = SafetyNumber(userID: identity.userID.rawValue, devices: chain.liveDevices)
        let statement = try identity.signer.sign(
            .addDevice(registration), on: .device(user: identity.userID.rawValue), after: last, at: at)
        try await client.appendDeviceStatement(statement.wire)
        try await shareKeysWithMyDevices()
        return DeviceApproval(
            device: registration, safetyNumber: SafetyNumberChange(before: before, after: try await mySafetyNumber()))
    }

    /// Declines a waiting device: its request is removed, and it is told so when it next asks.
    public func declineDevice(_ request: E2EDeviceRequest) async throws {
        try await client.removeDeviceRequest(request.id)
    }

    /// My safety number, from my verified device chain (the recovery key counts: it can read what I read).
    public func mySafetyNumber() async throws -> SafetyNumber {
        let user = try await me()
        return SafetyNumber(
            userID: user.rawValue, devices: try await readDeviceChain(of: user)?.chain.liveDevices ?? [])
    }
}

/// A request of this device's, waiting to be approved: what it shows the person.
public struct DeviceApprovalRequest: Sendable, Equatable {
    public let requestID: UUID
    public let device: SpotterE2E.DeviceRegistration
    /// Worked out here from this device's own keys, never read from the server.
    public let code: DeviceCode
    public let expiresAt: Date

    init(_ request: E2EDeviceRequest, identity: DeviceIdentity) {
        requestID = request.id
        device = identity.registration
        code = DeviceCode(userID: identity.userID.rawValue, device: identity.registration)
        expiresAt = request.expiresAt
    }
}

/// A device this one approved, and the person's safety number before and after.
public struct DeviceApproval: Sendable, Equatable {
    public let device: SpotterE2E.DeviceRegistration
    public let safetyNumber: SafetyNumberChange
}

/// Where a new device's approval stands.
public enum DeviceApprovalStatus: Sendable, Equatable {
    /// Show `request.code` until another device of the person's approves it.
    case waiting(DeviceApprovalRequest)
    /// This device is live in the person's chain.
    case approved(SpotterE2E.DeviceRegistration)
    /// Declined on another device, or it ran out: ask again.
    case gone
}

/// A person's safety number before and after their devices changed (a device approved, a recovery key made):
/// the people they share encrypted groups with see the new one, and may ask why.
public struct SafetyNumberChange: Sendable, Equatable {
    public let before: SafetyNumber
    public let after: SafetyNumber

    public init(before: SafetyNumber, after: SafetyNumber) {
        self.before = before
        self.after = after
    }

    /// What to say before a device is approved or a recovery key made.
    public static let notice =
        "Your safety number will change, since it covers every device of yours (a recovery key too): the people "
        + "you share encrypted groups with will see a new one."

    /// What to say after.
    public var summary: String {
        "Your safety number changed from \(before) to \(after). The people you share encrypted groups with will see "
            + "the new one."
    }
}

extension SpotterE2E.DeviceRegistration {
    /// As a device request carries it.
    var wire: E2EDevice {
        E2EDevice(
            id: id, name: name, hpkePublic: Base64URL.encode(hpkePublic.x963Representation),
            signingPublic: Base64URL.encode(signingPublic.x963Representation), recovery: recovery)
    }
}

extension E2EDevice {
    /// The registration it carries, its keys read strictly; `E2EError.invalidPublicKey` for keys that are not
    /// P-256 points.
    var registration: SpotterE2E.DeviceRegistration {
        get throws {
            guard let hpke = Base64URL.strict(hpkePublic), let signing = Base64URL.strict(signingPublic) else {
                throw E2EError.invalidPublicKey
            }
            return try SpotterE2E.DeviceRegistration(
                id: id, name: name, hpkePublic: hpke, signingPublic: signing, recovery: recovery)
        }
    }
}
