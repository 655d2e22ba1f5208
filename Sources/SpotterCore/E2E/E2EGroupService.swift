import Crypto
import Foundation
import SpotterE2E
import SpotterModels

/// An encrypted group's chain and keys (docs/encryption.md, "Who holds what"). The server's membership decides
/// who may fetch ciphertext; the chain decides whose devices get keys; devices reconcile the two, and this
/// service checks what they send as a client would and keeps it. It never makes or sees a key.
public struct E2EGroupService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    /// Where live sockets hear that someone's access ended (a `remove` statement); `nil` in tools.
    let events: (any EventBus)?

    public init(storage: any SpotterStorage, clock: any WallClock, events: (any EventBus)? = nil) {
        self.storage = storage
        self.clock = clock
        self.events = events
    }

    // MARK: Reading

    /// Where the group's keys stand, and what a device should do about it.
    public func state(_ id: GroupID, viewer: AccountRecord) async throws -> E2EGroupState {
        _ = try await E2EAccess.group(id, viewer: viewer, storage: storage)
        return try await state(id)
    }

    /// The group's chain: for its members, and for people invited (who check whom they are joining).
    public func chain(_ id: GroupID, viewer: AccountRecord) async throws -> E2EChain {
        _ = try await E2EAccess.group(id, viewer: viewer, storage: storage, invitedAt: clock.now)
        return E2EChain(statements: try await storage.e2e.groupStatements(of: id))
    }

    /// The wrapped keys of one of the caller's own live devices.
    public func keys(_ id: GroupID, device: UUID, viewer: AccountRecord) async throws -> E2EEpochKeys {
        _ = try await E2EAccess.group(id, viewer: viewer, storage: storage)
        guard let record = try await storage.e2e.device(device), record.userID == viewer.id, record.isLive else {
            throw SpotterError.notFound("No such device of yours.")
        }
        return E2EEpochKeys(keys: try await storage.e2e.keys(of: device, in: id))
    }

    // MARK: Changing

    /// Appends signed statements and, with them, perhaps the next epoch: all or nothing. The statements must
    /// continue the chain (a 409 when another device appended first) and verify with it (else 422), and each
    /// must be something its signer may do now by the server's roles, or mirror what the server says
    /// (`GroupChainPolicy`, else 403); `remove` ends their membership here too; the epoch is exactly the next
    /// one and its keys go only to live devices of the members the chain then has.
    public func change(
        _ id: GroupID, _ request: E2EGroupChangeRequest, by account: AccountRecord
    ) async throws -> E2EGroupState {
        // What the request holds is read first, every field named: then who may, and what the chain says.
        let signedStatements = try request.statements.enumerated().map {
            try E2EWire.signed($0.element, field: "statements[\($0.offset)]")
        }
        for (index, key) in (request.epoch?.keys ?? []).enumerated() {
            try E2EWire.check(key.key, size: E2EWire.wrappedEpochKeySize, field: "epoch.keys[\(index)].key")
        }
        let group = try await E2EAccess.group(id, viewer: account, storage: storage)
        guard !request.statements.isEmpty || request.epoch != nil else {
            throw SpotterError.invalid("statements", "must hold a statement, or come with an epoch")
        }
        let existing = try await storage.e2e.groupStatements(of: id)
        let now = clock.now
        var added: [(SignedStatement, StatementBody)] = []
        for (index, signed) in signedStatements.enumerated() {
            let field = "statements[\(index)]"
            let body = try E2EWire.body(signed, field: field)
            guard body.chain == .group(id.rawValue) else { throw SpotterError.invalid(field, "names another chain") }
            try E2EWire.checkTime(body, now: now, field: field)
            guard body.seq == existing.count + index else {
                throw SpotterError.conflict(
                    field: "statements", detail: "The chain is \(existing.count) long; read it and sign again.")
            }
            try checkServerRules(body, group: group, field: field)
            added.append((signed, body))
        }
        if existing.isEmpty, request.epoch?.number != 0 {
            throw SpotterError.invalid("epoch", "the group's first statement comes with epoch 0")
        }
        let all = try existing.map { try E2EWire.signed($0, field: "statements") } + added.map(\.0)
        let verified: VerifiedGroup
        let chains = try await deviceChains(for: all)
        do {
            verified = try GroupChain.verify(all, groupID: id.rawValue, deviceChains: chains)
        } catch { throw E2EWire.refusal(error, field: "statements") }
        // The server's roles decide: each statement, in order, by whose device signed it.
        // Whom the statements hand the group to, for the one rule on hand-overs: never to a suspended account.
        let heirs = added.compactMap { _, body -> UserID? in
            guard case .role(let user, .owner) = body.kind else { return nil }
            return UserID(rawValue: user)
        }
        let suspended =
            try await heirs.isEmpty ? [] : storage.accounts.find(ids: heirs).filter { $0.suspendedAt != nil }
        var policy = GroupChainPolicy(
            roles: try await storage.groups.memberRoles(of: id), access: group.access,
            suspended: Set(suspended.map(\.id)))
        for (offset, (_, body)) in added.enumerated() {
            try policy.take(body.kind, signer: UserID(rawValue: verified.signers[existing.count + offset]))
        }
        if let epoch = request.epoch {
            try checkKeys(epoch.keys, members: verified.members.map(\.userID), chains: chains)
        }
        let members = Dictionary(
            verified.members.compactMap { member in
                SpotterModels.GroupRole(rawValue: member.role.rawValue).map { (UserID(rawValue: member.userID), $0) }
            }, uniquingKeysWith: { first, _ in first })
        let current = try await storage.e2e.keyState(of: id)
        try await storage.write {
            if !added.isEmpty {
                guard
                    try await storage.e2e.appendGroupStatements(
                        added.map { ($0.0.wire, $0.0.hash) }, to: id, from: existing.count,
                        history: verified.history, members: members)
                else { throw Self.raced }
            }
            if let epoch = request.epoch {
                guard epoch.number == (current?.epoch.map { $0 + 1 } ?? 0),
                    try await storage.e2e.startEpoch(epoch.number, of: id, keys: epoch.keys)
                else {
                    throw SpotterError.conflict(
                        field: "epoch", detail: "The group is at another epoch; read its state and try again.")
                }
            }
            try await applyMembership(added.map(\.1), group: group)
        }
        return try await state(id)
    }

    /// Adds wrapped keys of existing epochs (for a member's new device, or a member just added), from any
    /// member's device. Each goes only to a live device of someone the chain counts as a member.
    public func addKeys(_ id: GroupID, _ request: E2EEpochKeys, by account: AccountRecord) async throws {
        for (index, key) in request.keys.enumerated() {
            try E2EWire.check(key.key, size: E2EWire.wrappedEpochKeySize, field: "keys[\(index)].key")
        }
        _ = try await E2EAccess.group(id, viewer: account, storage: storage)
        guard let current = try await storage.e2e.keyState(of: id)?.epoch else {
            throw SpotterError.conflict(field: "keys", detail: "The group has no keys yet.")
        }
        let members = Set(try await storage.e2e.chainMembers(of: id).keys)
        let live = try await storage.e2e.devices(of: Array(members)).filter(\.isLive)
        let allowed = Set(live.map(\.id))
        for (index, key) in request.keys.enumerated() {
            let field = "keys[\(index)]"
            guard allowed.contains(key.deviceID) else {
                throw SpotterError.invalid("\(field).device_id", "names a device that is not a live device of a member")
            }
            guard (0...current).contains(key.epoch) else {
                throw SpotterError.invalid("\(field).epoch", "names no epoch of the group")
            }
        }
        try await storage.e2e.addKeys(request.keys, in: id)
    }

    /// Deletes a post of an encrypted group on its author's signed tombstone: its ciphertext, its comments' and
    /// its photos go (later reads 404), and members' devices, which check the same signature, purge theirs.
    public func tombstone(
        _ postID: PostID, _ statement: E2EStatement, by account: AccountRecord, posts: PostService
    ) async throws {
        let signed = try E2EWire.signed(statement, field: "statement")
        guard let post = try await storage.posts.record(postID), post.deletedAt == nil, let groupID = post.groupID,
            try await storage.groups.find(groupID)?.encrypted == true,
            try await storage.posts.post(postID, viewer: account.id) != nil
        else { throw SpotterError.notFound("No such post of an encrypted group.") }
        guard post.authorID == account.id else { throw SpotterError.forbidden("Only its author deletes a post.") }
        guard let device = try await storage.e2e.device(signed.signer), device.userID == account.id, device.isLive,
            let raw = E2EWire.bytes(device.signingPublic),
            let key = try? P256.Signing.PublicKey(x963Representation: raw),
            let tombstone = Tombstone.verified(signed, by: key)
        else { throw SpotterError.invalid("statement", "is not a delete signed by a live device of yours") }
        guard tombstone.group == groupID.rawValue, tombstone.item == postID.rawValue else {
            throw SpotterError.invalid("statement", "deletes another item")
        }
        guard abs(tombstone.at - Int64(clock.now.timeIntervalSince1970)) <= E2EWire.clockWindow else {
            throw SpotterError.invalid("statement", "was made too far from the server's time")
        }
        try await posts.delete(postID, viewer: account, tombstoned: true)
    }

    // MARK: Helpers

    private static let raced = SpotterError.conflict(
        field: "statements", detail: "Another device changed the chain first; read it and sign again.")

    private func state(_ id: GroupID) async throws -> E2EGroupState {
        let key = try await storage.e2e.keyState(of: id)
        let chainMembers = try await storage.e2e.chainMembers(of: id)
        let serverMembers = try await storage.groups.memberRoles(of: id)
        let holders = try await storage.e2e.currentHolders(of: id)
        // Due when someone holds the current key who should not: a device revoked, a person gone, or a person
        // the chain still counts whom the server no longer does.
        let due =
            holders.contains { !$0.isLive || serverMembers[$0.userID] == nil }
            || chainMembers.keys.contains { serverMembers[$0] == nil }
        return E2EGroupState(
            epoch: key?.epoch, chain: E2EChainHead(length: key?.chainLength ?? 0, head: key?.head),
            history: key?.history, rotationDue: key?.epoch != nil && due,
            awaitingKeys: serverMembers.keys.filter { chainMembers[$0] == nil }.sorted {
                $0.description < $1.description
            },
            rolesDue: Self.rolesDue(chain: chainMembers, server: serverMembers))
    }

    /// The roles the server gives that the chain does not, for the chain owner's device to sign. The chain's
    /// owner is left out: their role changes only by the hand-over, which the server's owner's entry asks for.
    static func rolesDue(
        chain: [UserID: SpotterModels.GroupRole], server: [UserID: SpotterModels.GroupRole]
    ) -> [E2ERoleDue] {
        chain.compactMap { user, role in
            guard role != .owner, let given = server[user], given != role else { return nil }
            return E2ERoleDue(userID: user, role: given)
        }.sorted { $0.userID.description < $1.userID.description }
    }

    /// What the server adds to the chain's own rules before it reads the chain: the group's first statement
    /// names its owner here, and no device statement is a group's. Who may sign the rest is
    /// `GroupChainPolicy`'s (so a chain never counts a ghost the server never admitted).
    private func checkServerRules(_ body: StatementBody, group: GroupRecord, field: String) throws {
        switch body.kind {
        case .create(let user, _):
            guard user == group.ownerID.rawValue else {
                throw SpotterError.invalid(field, "must name the group's owner")
            }
        case .addDevice, .revokeDevice:
            throw SpotterError.invalid(field, "is a device statement")
        case .add, .remove, .role:
            break
        }
    }

    /// The verified device chains of everyone the group chain involves: whoever signed a statement (by their
    /// device) and whoever a statement names. A chain that does not verify is left out, so what it signed is
    /// refused.
    private func deviceChains(for statements: [SignedStatement]) async throws -> [VerifiedDeviceChain] {
        var people: Set<UserID> = []
        for statement in statements {
            if let device = try await storage.e2e.device(statement.signer) { people.insert(device.userID) }
            if let body = try? statement.decodedBody() {
                switch body.kind {
                case .create(let user, _), .add(let user, _), .remove(let user), .role(let user, _):
                    people.insert(UserID(rawValue: user))
                case .addDevice, .revokeDevice: break
                }
            }
        }
        var chains: [VerifiedDeviceChain] = []
        for person in people {
            let statements = try await storage.e2e.deviceStatements(of: person)
            guard !statements.isEmpty,
                let signed = try? statements.map({ try E2EWire.signed($0, field: "device chain") }),
                let chain = try? DeviceChain.verify(signed, userID: person.rawValue)
            else { continue }
            chains.append(chain)
        }
        return chains
    }

    /// A new epoch's keys: each to a different live device of a member, each the size of a wrapped key.
    private func checkKeys(_ keys: [E2EDeviceKey], members: [UUID], chains: [VerifiedDeviceChain]) throws {
        let allowed = Set(chains.filter { members.contains($0.userID) }.flatMap(\.liveDevices).map(\.id))
        var seen: Set<UUID> = []
        for (index, key) in keys.enumerated() {
            let field = "epoch.keys[\(index)].device_id"
            guard allowed.contains(key.deviceID) else {
                throw SpotterError.invalid(field, "names a device that is not a live device of a member")
            }
            guard seen.insert(key.deviceID).inserted else { throw SpotterError.invalid(field, "names a device twice") }
        }
        guard !keys.isEmpty else { throw SpotterError.invalid("epoch.keys", "must wrap the key to someone") }
    }

    /// The server's membership follows the chain's removals and roles: a `remove` ends access here at once (and
    /// on live sockets); `role` changes the role the group's other rules ask.
    private func applyMembership(_ bodies: [StatementBody], group: GroupRecord) async throws {
        for body in bodies {
            switch body.kind {
            case .remove(let user):
                let person = UserID(rawValue: user)
                if try await storage.groups.removeMember(person, from: group.id) {
                    await events?.publish(.groupAccessEnded(group.id, person))
                }
            case .role(let user, let role):
                let person = UserID(rawValue: user)
                // A role the server gives already (a mirror of a REST change) changes nothing here.
                guard let current = try await storage.groups.standing(of: person, in: group.id).role,
                    current.rawValue != role.rawValue
                else { continue }
                if role == .owner {
                    try await storage.groups.transfer(group.id, to: person)
                } else if let serverRole = SpotterModels.GroupRole(rawValue: role.rawValue) {
                    try await storage.groups.setMember(person, in: group.id, role: serverRole, at: clock.now)
                }
            case .create, .add, .addDevice, .revokeDevice:
                break
            }
        }
    }
}

/// Who may use an encrypted group's keys and ciphertext: its members (and, to read its chain, people invited
/// whose invitation is still open at `invitedAt`). Everyone else is told nothing exists, as for any private group.
enum E2EAccess {
    static func group(
        _ id: GroupID, viewer: AccountRecord, storage: any SpotterStorage, invitedAt now: Date? = nil
    ) async throws -> GroupRecord {
        guard let group = try await storage.groups.find(id) else { throw SpotterError.notFound("No such group.") }
        let standing =
            if let now { try await storage.groups.standing(of: viewer.id, in: id, at: now) } else {
                try await storage.groups.standing(of: viewer.id, in: id)
            }
        guard standing.role != nil || (now != nil && standing == .invited) else {
            throw SpotterError.notFound("No such group.")
        }
        guard group.encrypted else {
            throw SpotterError.conflict(field: "group", detail: "This group is not encrypted.")
        }
        return group
    }
}
