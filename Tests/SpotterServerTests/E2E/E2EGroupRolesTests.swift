import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

/// One source of truth for an encrypted group's roles: the server's (`group_members`, `GroupPolicy`). The
/// chain follows it: a statement is taken only from someone the group's rules allow to make it now, or when
/// it mirrors what the server already says; `GET …/e2e` says which roles the chain still has to follow.
@Suite("Encrypted groups: the server's roles decide")
struct E2EGroupRolesTests {
    /// Ana's encrypted group with Ben and Cyd in it, by the server and by the chain (Ben as `role`).
    struct Family {
        let group: Group
        let ana: E2EPerson
        let ben: E2EPerson
        let cyd: E2EPerson
    }

    static func family(_ api: APIClient, ben role: SpotterModels.GroupRole = .member) async throws -> Family {
        let ana = try await api.e2ePerson("ana")
        let ben = try await api.e2ePerson("ben")
        let cyd = try await api.e2ePerson("cyd")
        let (group, _, _) = try await api.encryptedGroup("The Kellers", owner: ana)
        try await api.addMember(ben.token, username: "ben", to: group, admin: ana.token)
        try await api.addMember(cyd.token, username: "cyd", to: group, admin: ana.token)
        if role == .admin { try await api.setRole(.admin, of: ben, in: group, by: ana) }
        let benRole: SpotterE2E.GroupRole = role == .admin ? .admin : .member
        let added = try await api.appendStatements(
            [.add(user: ben.id.rawValue, role: benRole), .add(user: cyd.id.rawValue, role: .member)], by: ana,
            to: group)
        #expect(added.status == .ok, "\(added.text)")
        return Family(group: group, ana: ana, ben: ben, cyd: cyd)
    }

    @Test(
        "an admin demoted through REST no longer removes a member through the chain",
        arguments: StorageBackend.available)
    func demotedAdmin(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            // Given Ben, an admin by the server and by the chain, whom Ana then demotes through REST
            let family = try await Self.family(api, ben: .admin)
            let (group, ana, ben, cyd) = (family.group, family.ana, family.ben, family.cyd)
            try await api.setRole(.member, of: ben, in: group, by: ana)
            #expect(try await api.groupState(group.id, token: ana.token).rolesDue == [E2ERoleDue(ben.id, .member)])

            // When his device, still an admin's by the chain, signs Cyd's removal
            let removal = try await api.appendStatements([.remove(user: cyd.id.rawValue)], by: ben, to: group)

            // Then the server refuses it in a sentence, and Cyd stays, by the server and the chain
            #expect(removal.status == .forbidden)
            #expect(
                try removal.problem().detail
                    == "Only the group's admins remove members; whoever signed this is not one now.")
            #expect(try await api.serverRole(of: cyd, in: group, token: ana.token) == .member)
            #expect(try await api.chainRoles(group, token: ana.token)[cyd.id.rawValue] == .member)

            // And Ana's device mirrors the demotion into the chain, after which nothing is due
            let mirrored = try await api.appendStatements(
                [.role(user: ben.id.rawValue, role: .member)], by: ana, to: group)
            #expect(mirrored.status == .ok)
            #expect(try mirrored.decode(E2EGroupState.self).rolesDue.isEmpty)
            #expect(try await api.chainRoles(group, token: ana.token)[ben.id.rawValue] == .member)
        }
    }

    @Test(
        "after a REST transfer the old owner neither removes the new owner nor hands the group to someone else",
        arguments: StorageBackend.available)
    func transferred(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            // Given Ana's group, which she hands to Ben through REST: the chain still names her its owner
            let family = try await Self.family(api)
            let (group, ana, ben, cyd) = (family.group, family.ana, family.ben, family.cyd)
            let transfer = try await api.call(
                .post, "/api/v1/groups/\(group.id)/transfer", token: ana.token,
                body: TransferGroupRequest(userID: ben.id))
            #expect(transfer.status == .ok)
            #expect(try await api.groupState(group.id, token: ana.token).rolesDue == [E2ERoleDue(ben.id, .owner)])

            // When her device removes Ben, or hands the group to Cyd, as the chain would let its owner
            let removal = try await api.appendStatements([.remove(user: ben.id.rawValue)], by: ana, to: group)
            let handOver = try await api.appendStatements(
                [.role(user: cyd.id.rawValue, role: .owner)], by: ana, to: group)

            // Then both are refused, as REST refuses them, and the server's roles stand
            #expect(removal.status == .forbidden)
            #expect(try removal.problem().detail == "Nobody removes the group's owner.")
            #expect(handOver.status == .forbidden)
            #expect(
                try handOver.problem().detail
                    == "Only the group's owner changes roles or hands the group on; whoever signed this is not the "
                    + "owner now.")
            #expect(try await api.serverRole(of: ben, in: group, token: ana.token) == .owner)
            #expect(try await api.serverRole(of: cyd, in: group, token: ana.token) == .member)
            #expect(try await api.serverRole(of: ana, in: group, token: ana.token) == .admin)

            // And her device mirrors the transfer: Ben owns the group by the chain too, and nothing is due
            let mirrored = try await api.appendStatements(
                [.role(user: ben.id.rawValue, role: .owner)], by: ana, to: group)
            #expect(mirrored.status == .ok)
            #expect(try mirrored.decode(E2EGroupState.self).rolesDue.isEmpty)
            let roles = try await api.chainRoles(group, token: ana.token)
            #expect(roles[ben.id.rawValue] == .owner && roles[ana.id.rawValue] == .admin)
            #expect(try await api.serverRole(of: ana, in: group, token: ana.token) == .admin)
        }
    }

    @Test(
        "a suspended member is handed the group neither through REST nor through the chain",
        arguments: StorageBackend.available)
    func suspendedHeir(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            // Given Ana's group with Ben and Cyd, and Cyd's account suspended
            let family = try await Self.family(api)
            let (group, ana, cyd) = (family.group, family.ana, family.cyd)
            try await api.suspend("cyd")

            // When Ana hands the group to Cyd through REST, and through the chain
            let transfer = try await api.call(
                .post, "/api/v1/groups/\(group.id)/transfer", token: ana.token,
                body: TransferGroupRequest(userID: cyd.id))
            let handOver = try await api.appendStatements(
                [.role(user: cyd.id.rawValue, role: .owner)], by: ana, to: group)

            // Then both are refused by the one rule (`GroupPolicy.refusal(transferringTo:)`), and Ana still owns it
            #expect(transfer.status == .unprocessableContent)
            #expect(handOver.status == .forbidden, "\(handOver.text)")
            #expect(try handOver.problem().detail == "The group is handed only to a member whose account is active.")
            #expect(try await api.serverRole(of: ana, in: group, token: ana.token) == .owner)
            // And the chain took nothing: it still agrees with the server, with no role due
            #expect(try await api.groupState(group.id, token: ana.token).rolesDue.isEmpty)
        }
    }

    @Test(
        "what the server's rules allow still goes through the chain; an add takes the role the server gives",
        arguments: StorageBackend.available)
    func allowed(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            // Given Ana's group with Ben and Cyd, and Dee let in by the server
            let family = try await Self.family(api)
            let (group, ana, ben, cyd) = (family.group, family.ana, family.ben, family.cyd)
            let dee = try await api.e2ePerson("dee")
            try await api.addMember(dee.token, username: "dee", to: group, admin: ana.token)

            // When someone adds Dee as an admin, whom the server counts as a member, it is refused
            let asAdmin = try await api.appendStatements(
                [.add(user: dee.id.rawValue, role: .admin)], by: ana, to: group)
            #expect(asAdmin.status == .forbidden)
            #expect(try asAdmin.problem().detail == "The group counts this person as a member: add them as a member.")

            // When the owner makes Ben an admin through the chain, the server follows (the owner may)
            let promoted = try await api.appendStatements(
                [.role(user: ben.id.rawValue, role: .admin)], by: ana, to: group)
            #expect(promoted.status == .ok)
            #expect(try await api.serverRole(of: ben, in: group, token: ana.token) == .admin)

            // Then Ben, an admin now, adds Dee and removes Cyd; and Dee leaves by her own device
            #expect(
                try await api.appendStatements([.add(user: dee.id.rawValue, role: .member)], by: ben, to: group)
                    .status == .ok)
            #expect(try await api.appendStatements([.remove(user: cyd.id.rawValue)], by: ben, to: group).status == .ok)
            #expect(try await api.serverRole(of: cyd, in: group, token: ana.token) == nil)
            #expect(try await api.appendStatements([.remove(user: dee.id.rawValue)], by: dee, to: group).status == .ok)
            #expect(Set(try await api.chainRoles(group, token: ana.token).keys) == [ana.id.rawValue, ben.id.rawValue])

            // But Ben, an admin, may not remove Ana, the owner, nor may a member make himself an admin
            #expect(
                try await api.appendStatements([.remove(user: ana.id.rawValue)], by: ben, to: group).status
                    == .unprocessableContent)  // the chain itself refuses: nobody removes its owner
            let eve = try await api.e2ePerson("eve")
            try await api.addMember(eve.token, username: "eve", to: group, admin: ana.token)
            #expect(
                try await api.appendStatements([.add(user: eve.id.rawValue, role: .member)], by: ana, to: group)
                    .status == .ok)
            let selfPromotion = try await api.appendStatements(
                [.role(user: eve.id.rawValue, role: .admin)], by: eve, to: group)
            #expect(selfPromotion.status == .unprocessableContent)  // by the chain: only its owner changes roles
        }
    }
}

/// A role the server gives that the chain does not yet, in the shape of `GET …/e2e`'s `roles_due`.
extension E2ERoleDue {
    init(_ user: UserID, _ role: SpotterModels.GroupRole) { self.init(userID: user, role: role) }
}

extension APIClient {
    /// `kinds` signed by `person`'s device, continuing the group's chain as it stands, appended in one request.
    func appendStatements(
        _ kinds: [StatementKind], by person: E2EPerson, to group: Group
    ) async throws
        -> TestResponse
    {
        var last = try await chain("/api/v1/groups/\(group.id)/e2e/chain", token: person.token).last
        var statements: [SignedStatement] = []
        for kind in kinds {
            let statement = try person.signer.sign(kind, on: .group(group.id.rawValue), after: last, at: now)
            statements.append(statement)
            last = statement
        }
        return try await call(
            .post, "/api/v1/groups/\(group.id)/e2e/chain", token: person.token,
            body: E2EGroupChangeRequest(statements: statements.map(\.wire)))
    }

    /// Makes `person` an admin or a member again through REST, as the owner `by`.
    func setRole(
        _ role: SpotterModels.GroupRole, of person: E2EPerson, in group: Group, by owner: E2EPerson
    )
        async throws
    {
        let response = try await call(
            .patch, "/api/v1/groups/\(group.id)/members/\(person.id)", token: owner.token,
            body: SetMemberRoleRequest(role: role))
        guard response.status == .ok || response.status == .noContent else {
            throw UnexpectedStatus(response: response)
        }
    }

    /// `person`'s role by the server, `nil` when it does not count them.
    func serverRole(of person: E2EPerson, in group: Group, token: String) async throws -> SpotterModels.GroupRole? {
        let page = try await call(.get, "/api/v1/groups/\(group.id)/members?limit=50", token: token)
            .decode(Page<SpotterModels.GroupMember>.self)
        return page.items.first { $0.person.id == person.id }?.role
    }

    /// The members by the group's chain, verified as a client verifies it, with their roles.
    func chainRoles(_ group: Group, token: String) async throws -> [UUID: SpotterE2E.GroupRole] {
        let statements = try await chain("/api/v1/groups/\(group.id)/e2e/chain", token: token)
        var people: Set<UUID> = []
        for statement in statements {
            switch try statement.decodedBody().kind {
            case .create(let user, _), .add(let user, _), .remove(let user), .role(let user, _): people.insert(user)
            case .addDevice, .revokeDevice: break
            }
        }
        var chains: [VerifiedDeviceChain] = []
        for person in people {
            chains.append(
                try DeviceChain.verify(
                    try await chain("/api/v1/device-chains/\(person)", token: token), userID: person))
        }
        let verified = try GroupChain.verify(statements, groupID: group.id.rawValue, deviceChains: chains)
        return Dictionary(uniqueKeysWithValues: verified.members.map { ($0.userID, $0.role) })
    }
}
