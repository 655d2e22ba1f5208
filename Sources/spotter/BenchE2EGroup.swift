import Foundation
import SpotterCore
import SpotterE2E
import SpotterModels

/// An encrypted group for `spotter bench e2e`: members with two devices each (a phone and a laptop), added to
/// the group's chain by its owner, with epoch 0 wrapped to every device. Made through the same services the API
/// uses, so the rotations it times are checked exactly as a real one is.
struct BenchE2EGroup {
    struct Person {
        let account: AccountRecord
        let devices: [(id: UUID, keys: DeviceKeys)]
        var signer: StatementSigner { StatementSigner(deviceID: devices[0].id, key: devices[0].keys.signing) }
    }

    let id: GroupID
    let owner: Person
    let people: [Person]

    static func make(storage: any SpotterStorage, clock: any WallClock, members: Int) async throws -> BenchE2EGroup {
        let deviceService = E2EDeviceService(storage: storage, clock: clock)
        var people: [Person] = []
        for number in 0..<members {
            let account = AccountRecord(
                id: .generate(at: clock.now), username: "bench_e2e_\(number)", email: nil, passwordHash: nil,
                displayName: "Member \(number)", appleSubject: nil, createdAt: clock.now)
            try await storage.accounts.create(account)
            let devices = [(UUID(), DeviceKeys()), (UUID(), DeviceKeys())]
            var previous: SignedStatement?
            for (index, device) in devices.enumerated() {
                // The phone signs itself in, then signs the laptop in.
                let signer = StatementSigner(deviceID: devices[0].0, key: devices[0].1.signing)
                let statement = try signer.sign(
                    .addDevice(device.1.registration(id: device.0, name: index == 0 ? "phone" : "laptop")),
                    on: .device(user: account.id.rawValue), after: previous)
                _ = try await deviceService.append(statement.wire, by: account)
                previous = statement
            }
            people.append(Person(account: account, devices: devices.map { (id: $0.0, keys: $0.1) }))
        }
        let owner = people[0]
        let group = try await GroupService(storage: storage, clock: clock).create(
            CreateGroupRequest(name: "Bench Family", access: .private, encrypted: true), by: owner.account)
        for person in people.dropFirst() {
            try await storage.groups.setMember(person.account.id, in: group.id, role: .member, at: clock.now)
        }
        // The owner's device: `create`, an `add` for everyone else, and epoch 0 for every device, in one change.
        var statements: [SignedStatement] = []
        statements.append(
            try owner.signer.sign(
                .create(user: owner.account.id.rawValue, history: false), on: .group(group.id.rawValue), after: nil))
        for person in people.dropFirst() {
            statements.append(
                try owner.signer.sign(
                    .add(user: person.account.id.rawValue, role: .member), on: .group(group.id.rawValue),
                    after: statements.last))
        }
        let made = BenchE2EGroup(id: group.id, owner: owner, people: people)
        let keys = try made.wrapped(EpochKey(), epoch: 0)
        _ = try await E2EGroupService(storage: storage, clock: clock).change(
            group.id,
            E2EGroupChangeRequest(
                statements: statements.map(\.wire), epoch: E2ENewEpoch(number: 0, keys: keys)),
            by: owner.account)
        return made
    }

    /// What the owner's device does to make epoch `epoch`: read and verify every member's device chain and the
    /// group's chain (as fetched), then wrap a new key to every live device of every member.
    func rotation(to epoch: Int, storage: any SpotterStorage) async throws -> E2EGroupChangeRequest {
        var chains: [VerifiedDeviceChain] = []
        for person in people {
            let statements = try await storage.e2e.deviceStatements(of: person.account.id).compactMap(
                SignedStatement.init(wire:))
            chains.append(try DeviceChain.verify(statements, userID: person.account.id.rawValue))
        }
        let groupStatements = try await storage.e2e.groupStatements(of: id).compactMap(SignedStatement.init(wire:))
        let group = try GroupChain.verify(groupStatements, groupID: id.rawValue, deviceChains: chains)
        let members = Set(group.members.map(\.userID))
        let key = EpochKey()
        var keys: [E2EDeviceKey] = []
        for chain in chains where members.contains(chain.userID) {
            for device in chain.liveDevices {
                let wrapped = try EpochKeyWrap.seal(
                    key, to: device.hpkePublic, groupID: id.rawValue, epoch: UInt32(epoch))
                keys.append(E2EDeviceKey(deviceID: device.id, key: Base64URL.encode(wrapped)))
            }
        }
        return E2EGroupChangeRequest(statements: [], epoch: E2ENewEpoch(number: epoch, keys: keys))
    }

    private func wrapped(_ key: EpochKey, epoch: Int) throws -> [E2EDeviceKey] {
        try people.flatMap { person in
            try person.devices.map { device in
                E2EDeviceKey(
                    deviceID: device.id,
                    key: Base64URL.encode(
                        try EpochKeyWrap.seal(
                            key, to: device.keys.hpke.publicKey, groupID: id.rawValue, epoch: UInt32(epoch))))
            }
        }
    }
}
