import Foundation
import SpotterE2E
import Testing

/// Another person's chain can name a device id or a public key of Alice's (a later `add_device` needs no signature
/// of the device it adds); her statements must still be hers, and only a full clone is ambiguous.
@Suite("Group chains and copied devices")
struct CopiedDeviceTests {
    /// Alice's group, and Mallory, whose chain adds `copy(alice's phone)`.
    static func setUp(
        copy: (DeviceRegistration) -> DeviceRegistration
    ) throws -> (
        alice: Person, mallory: Person, group: GroupBuilder
    ) {
        let alice = try Person.withFirstDevice()
        var mallory = try Person.withFirstDevice()
        try mallory.append(.addDevice(copy(alice.devices[0].registration)), by: mallory.devices[0])
        var group = GroupBuilder()
        try group.append(.create(user: alice.id, history: false), by: alice.devices[0])
        return (alice, mallory, group)
    }

    @Test("Alice's device id or signing key in Mallory's chain does not take or break Alice's statements")
    func copiedIDOrKey() throws {
        let copies: [(DeviceRegistration) -> DeviceRegistration] = [
            {
                DeviceRegistration(
                    id: $0.id, name: "same id", hpkePublic: $0.hpkePublic,
                    signingPublic: DeviceKeys().signing.publicKey, recovery: false)
            },
            {
                DeviceRegistration(
                    id: UUID(), name: "same key", hpkePublic: $0.hpkePublic, signingPublic: $0.signingPublic,
                    recovery: false)
            },
        ]
        for copy in copies {
            let (alice, mallory, group) = try Self.setUp(copy: copy)
            let verified = try GroupChain.verify(
                group.chain, groupID: group.id, deviceChains: [alice.verified(), mallory.verified()])
            #expect(verified.owner == alice.id)
        }
    }

    @Test("a device cloned whole (same id and key) into another person's chain makes its statements ambiguous")
    func clonedDevice() throws {
        let (alice, mallory, group) = try Self.setUp { $0 }
        #expect(throws: ChainError(seq: 0, reason: .unknownSigner(alice.devices[0].registration.id))) {
            try GroupChain.verify(group.chain, groupID: group.id, deviceChains: [alice.verified(), mallory.verified()])
        }
    }
}
