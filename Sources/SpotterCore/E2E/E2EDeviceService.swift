import Foundation
import SpotterE2E
import SpotterModels

/// People's device chains and recovery kits (docs/encryption.md, "Devices"). The server checks every statement
/// as a client would before it keeps it, so a chain it serves always verifies; what it cannot do is add a
/// device, since it holds no device's key.
public struct E2EDeviceService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    /// Tells an encrypted group's admins when a member's first device appears: its keys wait for one of theirs.
    let notifier: Notifier?

    public init(storage: any SpotterStorage, clock: any WallClock, notifier: Notifier? = nil) {
        self.storage = storage
        self.clock = clock
        self.notifier = notifier
    }

    /// `user`'s device chain: public keys, which anyone signed in may read, as they may read a profile (not
    /// across a block, and not a suspended account's: `PersonPolicy`).
    public func chain(of user: UserID, viewer: AccountRecord) async throws -> E2EChain {
        let isSelf = user == viewer.id
        guard let person = isSelf ? viewer : try await storage.accounts.find(id: user) else {
            throw SpotterError.notFound("No such user.")
        }
        let blocked = isSelf ? false : try await storage.graph.blockedEitherWay(with: viewer.id).contains(user)
        let facts = PersonPolicy.Facts(
            isSelf: isSelf, suspended: person.suspendedAt != nil, blockedEitherWay: blocked,
            privacy: person.profile.privacy)
        guard PersonPolicy.allows(.deviceChain, facts) else { throw SpotterError.notFound("No such user.") }
        return E2EChain(statements: try await storage.e2e.deviceStatements(of: user))
    }

    /// Appends a statement to the caller's own device chain: added or revoked devices. The whole chain with it
    /// must verify; a statement made for another length is a 409 (another device appended first).
    public func append(_ statement: E2EStatement, by account: AccountRecord) async throws -> E2EChainHead {
        let signed = try E2EWire.signed(statement, field: "statement")
        let body = try E2EWire.body(signed, field: "statement")
        guard body.chain == .device(user: account.id.rawValue) else {
            throw SpotterError.invalid("statement", "must extend your own device chain")
        }
        try E2EWire.checkTime(body, now: clock.now, field: "statement")
        let existing = try await storage.e2e.deviceStatements(of: account.id)
        guard body.seq == existing.count else {
            throw SpotterError.conflict(
                field: "statement", detail: "Your device chain is \(existing.count) long; read it and sign again.")
        }
        let chain = try existing.map { try E2EWire.signed($0, field: "statement") } + [signed]
        let verified: VerifiedDeviceChain
        do {
            verified = try DeviceChain.verify(chain, userID: account.id.rawValue)
        } catch { throw E2EWire.refusal(error, field: "statement") }
        if case .addDevice(let device) = body.kind, let taken = try await storage.e2e.device(device.id),
            taken.userID != account.id
        {
            throw SpotterError.conflict(field: "statement", detail: "That device id is taken; make a new one.")
        }
        let devices = verified.devices.map { E2EWire.record($0, of: account.id) }
        let appended = try await storage.write {
            guard
                try await storage.e2e.appendDeviceStatement(
                    statement, hash: signed.hash, seq: body.seq, of: account.id, devices: devices)
            else { return false }
            // The request this addition answers (docs/encryption.md, "Approving a new device") is used up.
            if case .addDevice(let device) = body.kind {
                try await storage.e2e.deleteDeviceRequest(forDevice: device.id, of: account.id)
            }
            return true
        }
        guard appended else {
            throw SpotterError.conflict(
                field: "statement", detail: "Another device changed your chain first; read it and sign again.")
        }
        // A first device has no key of any group yet: someone who joined an encrypted group before having one
        // (the web app makes it when they first open the group) waits for an admin's device to share them. A
        // later device is approved by one of the person's own, which shares them itself.
        if body.seq == 0 {
            for (group, _) in try await storage.groups.groups(of: account.id) where group.encrypted {
                await notifier?.notify(.groupJoined(group: group, member: account.id))
            }
        }
        return E2EChainHead(length: verified.length, head: verified.head)
    }

    public func recoveryKit(of account: AccountRecord) async throws -> E2ERecoveryKit {
        guard let kit = try await storage.e2e.recoveryKit(of: account.id) else {
            throw SpotterError.notFound("You have no recovery kit.")
        }
        return E2ERecoveryKit(kit: kit)
    }

    /// Keeps the caller's sealed recovery kit (the server never sees the words that open it).
    public func setRecoveryKit(_ kit: E2ERecoveryKit, by account: AccountRecord) async throws {
        guard let bytes = E2EWire.bytes(kit.kit), (28...E2EWire.maxRecoveryKit).contains(bytes.count) else {
            throw SpotterError.invalid(
                "kit", "must be a sealed kit, base64url, at most \(E2EWire.maxRecoveryKit) bytes")
        }
        try await storage.e2e.setRecoveryKit(kit.kit, of: account.id, at: clock.now)
    }
}
