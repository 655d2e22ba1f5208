import Foundation
import SpotterE2E
import Testing

@Suite("Group chains")
struct GroupChainTests {
    struct People {
        var alice: Person
        var bob: Person
        var carol: Person
        var chains: [VerifiedDeviceChain] { get throws { try [alice, bob, carol].map { try $0.verified() } } }
    }

    static func people() throws -> People {
        People(alice: try .withFirstDevice(), bob: try .withFirstDevice(), carol: try .withFirstDevice())
    }

    @Test("create, add, leave and an owner hand-over give the members and roles")
    func members() throws {
        // Given Alice's group, where she adds Bob as admin, Bob adds Carol, Carol leaves and Alice hands over
        let p = try Self.people()
        var group = GroupBuilder()
        try group.append(.create(user: p.alice.id, history: true), by: p.alice.devices[0])
        try group.append(.add(user: p.bob.id, role: .admin), by: p.alice.devices[0])
        try group.append(.add(user: p.carol.id, role: .member), by: p.bob.devices[0])
        try group.append(.remove(user: p.carol.id), by: p.carol.devices[0])
        try group.append(.role(user: p.bob.id, role: .owner), by: p.alice.devices[0])
        // When it is verified with their device chains
        let verified = try GroupChain.verify(group.chain, groupID: group.id, deviceChains: try p.chains)
        // Then Bob owns it, Alice is an admin, Carol is gone
        #expect(
            verified.members == [
                GroupMember(userID: p.alice.id, role: .admin), GroupMember(userID: p.bob.id, role: .owner),
            ])
        #expect(verified.owner == p.bob.id)
        #expect(verified.history)
        #expect(verified.length == 5)
        #expect(verified.head == group.chain[4].hash)
    }

    @Test("an add by a member who is not an admin is refused")
    func addByMember() throws {
        let p = try Self.people()
        var group = GroupBuilder()
        try group.append(.create(user: p.alice.id, history: false), by: p.alice.devices[0])
        try group.append(.add(user: p.bob.id, role: .member), by: p.alice.devices[0])
        try group.append(.add(user: p.carol.id, role: .member), by: p.bob.devices[0])
        #expect(throws: ChainError(seq: 2, reason: .notAllowed("only an admin or the owner adds"))) {
            try GroupChain.verify(group.chain, groupID: group.id, deviceChains: try p.chains)
        }
    }

    @Test("who may sign what: create by its user, remove by an admin or self, roles by the owner")
    func signers() throws {
        let p = try Self.people()
        var created = GroupBuilder()
        try created.append(.create(user: p.alice.id, history: false), by: p.bob.devices[0])
        #expect(throws: ChainError(seq: 0, reason: .notAllowed("create is signed by its user"))) {
            try GroupChain.verify(created.chain, groupID: created.id, deviceChains: try p.chains)
        }
        var base = GroupBuilder()
        try base.append(.create(user: p.alice.id, history: false), by: p.alice.devices[0])
        try base.append(.add(user: p.bob.id, role: .admin), by: p.alice.devices[0])
        try base.append(.add(user: p.carol.id, role: .member), by: p.alice.devices[0])
        let refused: [(StatementKind, Person.Device)] = [
            (.remove(user: p.bob.id), p.carol.devices[0]),  // a member removes another
            (.role(user: p.carol.id, role: .admin), p.bob.devices[0]),  // an admin changes a role
            (.remove(user: p.alice.id), p.bob.devices[0]),  // the owner removed
            (.add(user: p.carol.id, role: .member), p.alice.devices[0]),  // already a member
            (.add(user: UUID(), role: .owner), p.alice.devices[0]),  // added as owner
            (.create(user: p.alice.id, history: true), p.alice.devices[0]),  // a second create
            (.addDevice(Person.device(name: "x").registration), p.alice.devices[0]),  // a device chain's kind
        ]
        for (kind, device) in refused {
            var group = base
            try group.append(kind, by: device)
            #expect(throws: ChainError.self, "\(kind)") {
                try GroupChain.verify(group.chain, groupID: group.id, deviceChains: try p.chains)
            }
        }
        var admin = base
        try admin.append(.remove(user: p.carol.id), by: p.bob.devices[0])
        #expect(try GroupChain.verify(admin.chain, groupID: admin.id, deviceChains: try p.chains).members.count == 2)
    }

    @Test("a signer revoked before the statement, or no one's device, is refused; revoked after, it stands")
    func signerLiveness() throws {
        // Given Alice with a laptop that creates the group at 1_700_000_101
        var p = try Self.people()
        let laptop = try p.alice.addDevice(name: "laptop")
        var group = GroupBuilder()
        try group.append(.create(user: p.alice.id, history: false), by: laptop, at: 1_700_000_101)
        // When the laptop is revoked later, the create stands
        p.alice.clock = 1_700_000_200
        try p.alice.append(.revokeDevice(laptop.registration.id), by: p.alice.devices[0])
        #expect(try GroupChain.verify(group.chain, groupID: group.id, deviceChains: try p.chains).owner == p.alice.id)
        // But what the laptop signs after its revocation is refused
        try group.append(.add(user: p.bob.id, role: .member), by: laptop, at: 1_700_000_300)
        #expect(throws: ChainError(seq: 1, reason: .signerNotLive(laptop.registration.id))) {
            try GroupChain.verify(group.chain, groupID: group.id, deviceChains: try p.chains)
        }
        // And a device in no given chain is unknown
        #expect(throws: ChainError(seq: 0, reason: .unknownSigner(laptop.registration.id))) {
            try GroupChain.verify(group.chain, groupID: group.id, deviceChains: [try p.bob.verified()])
        }
    }

    @Test("a forged signature or a broken link in a group chain is refused")
    func forgedOrBroken() throws {
        let p = try Self.people()
        var group = GroupBuilder()
        try group.append(.create(user: p.alice.id, history: false), by: p.alice.devices[0])
        try group.append(.add(user: p.bob.id, role: .member), by: p.alice.devices[0])
        var forged = group.chain
        forged[1].signature[0] ^= 0x01
        #expect(throws: ChainError(seq: 1, reason: .badSignature)) {
            try GroupChain.verify(forged, groupID: group.id, deviceChains: try p.chains)
        }
        #expect(throws: ChainError(seq: 0, reason: .wrongSeq(expected: 0, found: 1))) {
            try GroupChain.verify(Array(group.chain.dropFirst()), groupID: group.id, deviceChains: try p.chains)
        }
        #expect(throws: ChainError.self) {
            try GroupChain.verify(group.chain, groupID: UUID(), deviceChains: try p.chains)
        }
    }
}
