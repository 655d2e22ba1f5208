import Foundation
import SpotterE2E
import SpotterModels

/// What `reconcile` did.
public struct ReconcileReport: Sendable, Equatable {
    /// People the server let in whom this device added to the chain and wrapped keys to.
    public var added: [UserID] = []
    /// People the server no longer counts whom this device removed from the chain.
    public var removed: [UserID] = []
    /// Members whose role this device brought in line with the server's (an admin made or unmade there, or
    /// the group handed over).
    public var roleChanged: [UserID] = []
    /// The epoch this device made, if it made one.
    public var newEpoch: Int?
    /// Keys wrapped to my own devices that lacked them.
    public var keysForMyDevices = 0

    public init() {}
}

/// Making the group's chain and keys agree with the server's membership (docs/encryption.md, "Who holds
/// what"): an admin's device adds who the server let in (with the role it gives them) and removes who it let
/// go, and makes the next epoch when someone left or a device was revoked; the chain owner's device signs the
/// roles the server gives (its roles decide: a promotion, demotion or hand-over made through REST); any
/// member's device wraps keys to its person's new devices.
///
/// ```swift
/// let report = try await groups.reconcile(family.id)
/// if let epoch = report.newEpoch { print("new key, epoch \(epoch), without \(report.removed)") }
/// ```
extension EncryptedGroups {
    /// Makes an encrypted group (always private) and its chain: `create`, signed by this device, with epoch
    /// 0's key wrapped to my live devices. `history` says whether people added later get older epochs.
    public func createGroup(name: String, description: String? = nil, history: Bool) async throws -> Group {
        let (identity, myChain, _) = try await liveIdentity()
        let group = try await client.createGroup(
            CreateGroupRequest(name: name, description: description, access: .private, encrypted: true))
        let create = try identity.signer.sign(
            .create(user: identity.userID.rawValue, history: history), on: .group(group.id.rawValue), after: nil,
            at: at)
        let verified = try Self.verify([create], groupID: group.id, chains: [identity.userID.rawValue: myChain])
        let epochKey = EpochKey()
        let keys = try KeyRecipients(group: verified, deviceChains: [myChain]).wrapToAll(epochKey, epoch: 0)
        try await client.changeE2EGroup(
            group.id, E2EGroupChangeRequest(statements: [create.wire], epoch: E2ENewEpoch(number: 0, keys: keys)))
        try await acceptSeen(verified)
        remember(epochKey, epoch: 0, in: group.id)
        return group
    }

    /// Brings the group's chain and keys in line with the server's membership, as far as this device may.
    /// When another device changed the chain first (409), reads everything again and tries once more.
    @discardableResult
    public func reconcile(_ groupID: GroupID) async throws -> ReconcileReport {
        do {
            return try await reconcileOnce(groupID)
        } catch let error as SpotterClientError where error.status == 409 {
            return try await reconcileOnce(groupID)
        }
    }

    private func reconcileOnce(_ groupID: GroupID) async throws -> ReconcileReport {
        let identity = try await liveIdentity().identity
        let state = try await client.e2eState(of: groupID)
        var read = try await readGroup(groupID)
        guard let current = state.epoch else { throw EncryptedGroupsError.notEncrypted(groupID) }
        var report = ReconcileReport()
        let myRole = read.group.role(of: identity.userID.rawValue)
        guard myRole != nil else { throw EncryptedGroupsError.notAMember(identity.userID) }
        if myRole == .admin || myRole == .owner {
            read = try await administer(groupID, read: read, state: state, current: current, report: &report)
        }
        report.keysForMyDevices = try await shareKeysWithMyDevices(in: groupID, read: read)
        return report
    }

    /// The admin's part: `add` and `remove` statements (and the owner's `role` statements), the next epoch if
    /// due, and older epochs' keys for the people added; answers the group as it now is.
    private func administer(
        _ groupID: GroupID, read: GroupRead, state: E2EGroupState, current: Int, report: inout ReconcileReport
    ) async throws -> GroupRead {
        let identity = try await identity()
        let serverMembers = try await serverMembers(of: groupID)
        var chains = read.chains
        var statements: [SignedStatement] = []
        var last = read.statements.last
        func append(_ kind: StatementKind) throws {
            let statement = try identity.signer.sign(kind, on: .group(groupID.rawValue), after: last, at: at)
            statements.append(statement)
            last = statement
        }
        var members = read.group.members
        for user in state.awaitingKeys where read.group.role(of: user.rawValue) == nil {
            guard let role = serverMembers[user], let chain = try await readDeviceChain(of: user)?.chain,
                !chain.liveDevices.isEmpty
            else { continue }  // no devices yet: added when they have one
            chains[user.rawValue] = chain
            // With the role the server gives (an owner as an admin, handed the group below): the server takes
            // no other.
            let added: SpotterE2E.GroupRole = role >= .admin ? .admin : .member
            try append(.add(user: user.rawValue, role: added))
            members.append(SpotterE2E.GroupMember(userID: user.rawValue, role: added))
            report.added.append(user)
        }
        for member in read.group.members where member.role != .owner {
            let user = UserID(rawValue: member.userID)
            guard serverMembers[user] == nil else { continue }
            try append(.remove(user: member.userID))
            report.removed.append(user)
        }
        if read.group.role(of: identity.userID.rawValue) == .owner {
            let staying = members.filter { serverMembers[UserID(rawValue: $0.userID)] != nil }
            try roleChanges(staying, serverMembers: serverMembers, report: &report).forEach(append)
        }
        let rotate = state.rotationDue || !report.removed.isEmpty
        guard !statements.isEmpty || rotate else { return read }

        // The chain as it will be, verified here first: keys go only to its members' verified live devices.
        let after = try Self.verify(read.statements + statements, groupID: groupID, chains: chains)
        let recipients = KeyRecipients(group: after, deviceChains: Array(chains.values))
        var newEpoch: E2ENewEpoch?
        let epochKey = EpochKey()
        if rotate {
            newEpoch = E2ENewEpoch(number: current + 1, keys: try recipients.wrapToAll(epochKey, epoch: current + 1))
        }
        try await client.changeE2EGroup(
            groupID, E2EGroupChangeRequest(statements: statements.map(\.wire), epoch: newEpoch))
        try await acceptSeen(after)
        if let newEpoch {
            remember(epochKey, epoch: newEpoch.number, in: groupID)
            report.newEpoch = newEpoch.number
        }

        // Older epochs for the people added: all of them when the group keeps history, else the current one
        // unless a new one was just made for them.
        if !report.added.isEmpty {
            let held = try await epochKeys(groupID, refresh: true)
            let epochs = after.history ? Array(0...current) : rotate ? [] : [current]
            var keys: [E2EEpochKey] = []
            for user in report.added {
                let devices = try recipients.devices(of: user).map(\.id)
                for epoch in epochs {
                    guard let key = held[epoch] else { continue }  // the statements are in: share what I hold
                    keys += try recipients.wrap(key, epoch: epoch, to: devices).map {
                        E2EEpochKey(deviceID: $0.deviceID, epoch: epoch, key: $0.key)
                    }
                }
            }
            if !keys.isEmpty { try await client.addEpochKeys(E2EEpochKeys(keys: keys), in: groupID) }
        }
        return GroupRead(group: after, statements: read.statements + statements, chains: chains)
    }

    /// The owner's `role` statements that bring the chain's roles in line with the server's: admins made or
    /// unmade there, and a hand-over last (after it this device no longer signs as the owner).
    private func roleChanges(
        _ members: [SpotterE2E.GroupMember], serverMembers: [UserID: SpotterModels.GroupRole],
        report: inout ReconcileReport
    ) -> [StatementKind] {
        var changes: [StatementKind] = []
        var handOver: StatementKind?
        for member in members where member.role != .owner {
            let user = UserID(rawValue: member.userID)
            switch serverMembers[user] {
            case .owner?:
                handOver = .role(user: member.userID, role: .owner)
            case .admin? where member.role != .admin:
                changes.append(.role(user: member.userID, role: .admin))
            case .member? where member.role != .member:
                changes.append(.role(user: member.userID, role: .member))
            default:
                continue
            }
            report.roleChanged.append(user)
        }
        return changes + (handOver.map { [$0] } ?? [])
    }

    /// Who the server counts as members, with their roles there.
    private func serverMembers(of group: GroupID) async throws -> [UserID: SpotterModels.GroupRole] {
        var members: [UserID: SpotterModels.GroupRole] = [:]
        var cursor: String?
        repeat {
            let page = try await client.groupMembers(group, cursor: cursor, limit: 50)
            for member in page.items { members[member.person.id] = member.role }
            cursor = page.nextCursor
        } while cursor != nil
        return members
    }

    /// Each member's safety number: a fingerprint of their live devices (the recovery device too), for two
    /// people to compare in person. A new device changes it.
    public func safetyNumbers(_ groupID: GroupID) async throws -> [UserID: SafetyNumber] {
        let read = try await readGroup(groupID)
        var numbers: [UserID: SafetyNumber] = [:]
        for member in read.group.members {
            let devices = read.chains[member.userID]?.liveDevices ?? []
            numbers[UserID(rawValue: member.userID)] = SafetyNumber(userID: member.userID, devices: devices)
        }
        return numbers
    }
}
