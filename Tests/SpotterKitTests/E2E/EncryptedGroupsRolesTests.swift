import Foundation
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterKit

/// The server's roles are an encrypted group's truth: a role changed through REST (an admin made or unmade,
/// the group handed on) is mirrored into the chain by the next reconcile of the device that may sign it.
@Suite("Encrypted groups: the chain follows the server's roles")
struct EncryptedGroupsRolesTests {
    typealias Device = EncryptedGroupsLiveTests.Device

    /// Each member's role by the chain, as `device` verifies it.
    static func chainRoles(_ device: Device, _ group: GroupID) async throws -> [UserID: SpotterE2E.GroupRole] {
        let read = try await device.groups.readGroup(group)
        return Dictionary(uniqueKeysWithValues: read.group.members.map { (UserID(rawValue: $0.userID), $0.role) })
    }

    @Test(
        "after a REST promotion, demotion and transfer, the reconcile makes the chain agree with the server",
        arguments: StorageBackend.available)
    func followsREST(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend) { url, clock in
            // Given Ana's family group with Ben in it
            let (ana, ben, group) = try await EncryptedGroupsLiveTests.family(url, clock)
            let (anaID, benID) = (try await ana.id, try await ben.id)

            // When Ana makes Ben an admin through REST, the chain does not say so until her device reconciles
            try await ana.client.setRole(.admin, of: benID, in: group.id)
            #expect(try await ana.client.e2eState(of: group.id).rolesDue == [E2ERoleDue(userID: benID, role: .admin)])
            #expect(try await ana.groups.reconcile(group.id).roleChanged == [benID])
            #expect(try await Self.chainRoles(ben, group.id)[benID] == .admin)

            // When she makes him a member again, likewise
            try await ana.client.setRole(.member, of: benID, in: group.id)
            #expect(try await ana.groups.reconcile(group.id).roleChanged == [benID])
            #expect(try await Self.chainRoles(ben, group.id)[benID] == .member)

            // When Carl joins and Ana hands him the group through REST before any device added him to the chain
            let carl = try await Device.signUp("carl", url, clock: clock)
            let carlID = try await carl.id
            _ = try await ana.client.createInvitation(to: group.id, CreateInvitationRequest(username: "carl"))
            _ = try await carl.client.joinGroup(group.id)
            _ = try await ana.client.transferGroup(group.id, to: carlID)
            let report = try await ana.groups.reconcile(group.id)

            // Then her device adds him and hands him the group in the chain: it agrees with the server, nothing due
            #expect(report.added == [carlID] && report.roleChanged == [carlID])
            #expect(try await Self.chainRoles(carl, group.id) == [anaID: .admin, benID: .member, carlID: .owner])
            var state = try await carl.client.e2eState(of: group.id)
            #expect(state.rolesDue.isEmpty && state.awaitingKeys.isEmpty)

            // When Carl, the owner now, makes Ana a member through REST, his device is the one that mirrors it
            try await carl.client.setRole(.member, of: anaID, in: group.id)
            #expect(try await ana.groups.reconcile(group.id).roleChanged.isEmpty)  // she signs roles no more
            #expect(try await carl.groups.reconcile(group.id).roleChanged == [anaID])
            #expect(try await Self.chainRoles(ben, group.id) == [anaID: .member, benID: .member, carlID: .owner])
            state = try await ben.client.e2eState(of: group.id)
            #expect(state.rolesDue.isEmpty)

            // And Carl's device reads what Ben posts: his keys came with the hand-over
            let post = try await ben.groups.post(text: "New owner, same family", to: group.id)
            #expect(try await carl.groups.open(try await carl.client.post(post.id)).text == "New owner, same family")
        }
    }
}
