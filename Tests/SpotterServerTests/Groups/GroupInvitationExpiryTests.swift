import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterModels
import SpotterTestSupport
import Testing

/// An invitation by name lasts as long as it says: after that the person stands with the group as anyone
/// does, on every surface, as an expired link does.
@Suite("An invitation by name, once expired")
struct GroupInvitationExpiryTests {
    static func inviteForAMinute(_ api: APIClient, _ admin: String, _ group: Group, _ username: String) async throws {
        let invited = try await api.call(
            .post, "/api/v1/groups/\(group.id)/invitations", token: admin,
            body: CreateInvitationRequest(username: username, expiresIn: 60))
        #expect(invited.status == .created)
    }

    @Test(
        "admits nobody to a private group, says it expired, and no longer shows the group",
        arguments: StorageBackend.available)
    func privateGroup(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's private family group, and Bea invited to it by name for a minute
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let family = try await api.createGroup(ana, "Family", access: .private)
            try await Self.inviteForAMinute(api, ana, family, "bea")
            // While it lasts, Bea sees the group and her invitation
            let about = try await api.call(.get, "/api/v1/groups/\(family.id)", token: bea)
            #expect(try about.decode(Group.self).standing == .invited)
            let waiting = try await api.call(.get, "/api/v1/me/group-invitations", token: bea)
            #expect(try waiting.decode(Page<GroupInvitation>.self).items.map(\.group.id) == [family.id])

            // When 62 seconds pass
            api.clock.advance(by: 62)

            // Then joining does not let her in, and says why in words
            let join = try await api.call(.post, "/api/v1/groups/\(family.id)/join", token: bea)
            #expect(join.status == .forbidden)
            #expect(
                try join.problem().detail
                    == "Your invitation to this group has expired. Ask one of its admins to invite you again.")
            // And the group is hidden from her again, as from anyone outside it
            #expect(try await api.call(.get, "/api/v1/groups/\(family.id)", token: bea).status == .notFound)
            let none = try await api.call(.get, "/api/v1/me/group-invitations", token: bea)
            #expect(try none.decode(Page<GroupInvitation>.self).items.isEmpty)
            // And she is no member: the family has its owner only, and its admins see the invitation expired
            let members = try await api.call(.get, "/api/v1/groups/\(family.id)/members", token: ana)
            #expect(try members.decode(Page<GroupMember>.self).items.map(\.person.username) == ["ana"])
            let listed = try await api.call(.get, "/api/v1/groups/\(family.id)/invitations", token: ana)
                .decode(Page<GroupInvitation>.self).items
            #expect(listed.count == 1)
            #expect(listed.allSatisfy { ($0.expiresAt ?? .distantFuture) <= api.clock.now })

            // When Ana invites her again, the new invitation lets her in
            try await Self.inviteForAMinute(api, ana, family, "bea")
            #expect(try await api.joinGroup(bea, family).standing == .member)
        }
    }

    @Test(
        "in a request group it is no longer an acceptance: joining asks, as anyone's does",
        arguments: StorageBackend.available)
    func requestGroup(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's request-to-join team, and Bea invited to it by name for a minute
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let team = try await api.createGroup(ana, "Strength Team", access: .request)
            try await Self.inviteForAMinute(api, ana, team, "bea")
            // When 62 seconds pass
            api.clock.advance(by: 62)
            // Then the about page shows her as anyone: not invited
            let about = try await api.call(.get, "/api/v1/groups/\(team.id)", token: bea)
            #expect(try about.decode(Group.self).standing == GroupStanding.none)
            // And joining asks an admin instead of letting her in
            #expect(try await api.joinGroup(bea, team).standing == .requested)
            let members = try await api.call(.get, "/api/v1/groups/\(team.id)/members", token: ana)
            #expect(try members.decode(Page<GroupMember>.self).items.map(\.person.username) == ["ana"])
            let requests = try await api.call(.get, "/api/v1/groups/\(team.id)/requests", token: ana)
            #expect(try requests.decode(Page<GroupJoinRequest>.self).items.map(\.person.username) == ["bea"])
        }
    }

    @Test(
        "the web app's group page stops offering to accept it, and the groups page stops listing it",
        arguments: StorageBackend.available)
    func webPage(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Bea in the browser, invited by name for a minute to Ana's team and to her family
            let ana = try await api.user("ana")
            var bea = WebBrowser(api)
            try await bea.signUp("bea")
            let team = try await api.createGroup(ana, "Strength Team", access: .request)
            let family = try await api.createGroup(ana, "Family", access: .private)
            try await Self.inviteForAMinute(api, ana, team, "bea")
            try await Self.inviteForAMinute(api, ana, family, "bea")
            let before = try await bea.get("/groups/\(team.id)").text
            #expect(before.contains("Accept and join"))
            #expect(try await bea.get("/groups").text.contains(#"id="group-invitations""#))

            // When 62 seconds pass
            api.clock.advance(by: 62)

            // Then the team's page offers what it offers anyone, asking to join, and no acceptance
            let after = try await bea.get("/groups/\(team.id)").text
            #expect(!after.contains("Accept and join"))
            #expect(!after.contains("You are invited to this group."))
            #expect(after.contains(#"id="ask-form""#))
            // And the family's page is gone for her, and her groups page lists no invitation
            #expect(try await bea.get("/groups/\(family.id)").status == .notFound)
            let groups = try await bea.get("/groups").text
            #expect(!groups.contains(#"id="group-invitations""#) && !groups.contains("Family"))
        }
    }

    @Test("no longer opens an encrypted group's key chain", arguments: StorageBackend.available)
    func encryptedChain(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted family group, and Bea invited to it by name for a minute
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let made = try await api.call(
                .post, "/api/v1/groups", token: ana,
                body: CreateGroupRequest(name: "The Kellers", access: .private, encrypted: true))
            let family = try made.decode(Group.self)
            try await Self.inviteForAMinute(api, ana, family, "bea")
            // While it lasts, she may read whom she would be joining
            let chain = "/api/v1/groups/\(family.id)/e2e/chain"
            #expect(try await api.call(.get, chain, token: bea).status == .ok)
            // When 62 seconds pass, the chain is closed to her as the group is
            api.clock.advance(by: 62)
            #expect(try await api.call(.get, chain, token: bea).status == .notFound)
        }
    }
}
