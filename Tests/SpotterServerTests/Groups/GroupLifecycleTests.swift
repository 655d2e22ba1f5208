import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("A group's life: settings, invitation links, transfer, leaving and deletion")
struct GroupLifecycleTests {
    @Test("bad settings are refused naming each field, and nothing changes", arguments: StorageBackend.available)
    func settings(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bad = try await api.call(
                .post, "/api/v1/groups", token: ana,
                body: CreateGroupRequest(name: "  ", access: .open, timeZone: "Mars/Olympus"))
            #expect(bad.status == .unprocessableContent)
            #expect(Set(try bad.problem().errors?.map(\.field) ?? []) == ["name", "time_zone"])
            #expect(try await api.call(.get, "/api/v1/me/groups", token: ana).decode(Page<Group>.self).items.isEmpty)
            let club = try await api.createGroup(ana, "Harbour Runners", access: .open)
            #expect(club.timeZone == "UTC")
            #expect(club.memberCount == 1)
            let long = String(repeating: "x", count: 2_001)
            let refused = try await api.call(
                .patch, "/api/v1/groups/\(club.id)", token: ana, body: UpdateGroupRequest(name: "", description: long))
            #expect(Set(try refused.problem().errors?.map(\.field) ?? []) == ["name", "description"])
            let renamed = try await api.call(
                .patch, "/api/v1/groups/\(club.id)", token: ana,
                body: UpdateGroupRequest(name: "Harbour Run Club", timeZone: "Europe/Lisbon"))
            #expect(try renamed.decode(Group.self).name == "Harbour Run Club")
            // Discovery finds open and request groups by name, accents aside, and never a private one
            _ = try await api.createGroup(ana, "Café Secrets", access: .private)
            _ = try await api.createGroup(ana, "Café Lifters", access: .request)
            let found = try await api.call(.get, "/api/v1/groups?q=cafe").decode(Page<Group>.self).items
            #expect(found.map(\.name) == ["Café Lifters"])
        }
    }

    @Test(
        "an invitation link works until it is used up, expires or is revoked; a ban outlasts it",
        arguments: StorageBackend.available)
    func links(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let family = try await api.createGroup(ana, "Family", access: .private)
            let link = try await api.invite(ana, family, maxUses: 2)
            let code = try #require(link.code)
            #expect(link.url?.hasSuffix("/groups/join/\(code)") == true)
            // The server keeps only the code's hash: listing shows no code
            let listed = try await api.call(.get, "/api/v1/groups/\(family.id)/invitations", token: ana)
                .decode(Page<GroupInvitation>.self).items
            #expect(listed.map(\.id) == [link.id])
            #expect(listed.first?.code == nil)
            // A link shows where it leads, even to someone signed out
            let preview = try await api.call(.get, "/api/v1/group-invitations/\(code)").decode(Group.self)
            #expect(preview.name == "Family")
            #expect(try await api.call(.get, "/api/v1/group-invitations/spg_nothing").status == .notFound)
            // Two people join by it; the third finds it used up
            let bea = try await api.user("bea")
            let cai = try await api.user("cai")
            let dee = try await api.user("dee")
            #expect(try await api.joinByCode(bea, code).standing == .member)
            // Joining twice is no second use
            #expect(try await api.joinByCode(bea, code).standing == .member)
            #expect(try await api.joinByCode(cai, code).standing == .member)
            let usedUp = try await api.call(
                .post, "/api/v1/groups/join", token: dee, body: JoinByCodeRequest(code: code))
            #expect(usedUp.status == .conflict)
            // An expired link and a revoked one are refused too
            let week = try await api.invite(ana, family)
            let revoked = try await api.invite(ana, family)
            #expect(
                try await api.call(.delete, "/api/v1/groups/\(family.id)/invitations/\(revoked.id)", token: ana).status
                    == .noContent)
            let refused = try await api.call(
                .post, "/api/v1/groups/join", token: dee, body: JoinByCodeRequest(code: revoked.code ?? ""))
            #expect(refused.status == .conflict)
            api.clock.advance(by: 8 * 86_400)
            let fresh = try await api.user("eve")
            let expired = try await api.call(
                .post, "/api/v1/groups/join", token: fresh, body: JoinByCodeRequest(code: week.code ?? ""))
            #expect(expired.status == .conflict)
            // Someone banned can't come back through a new link
            let anaAgain = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let beaID = try await api.userID("bea", token: anaAgain)
            #expect(
                try await api.call(.put, "/api/v1/groups/\(family.id)/bans/\(beaID)", token: anaAgain).status
                    == .noContent)
            let another = try await api.invite(anaAgain, family)
            let beaAgain = try await api.signin("bea").decode(TokenResponse.self).accessToken
            let banned = try await api.call(
                .post, "/api/v1/groups/join", token: beaAgain, body: JoinByCodeRequest(code: another.code ?? ""))
            #expect(banned.status == .forbidden)
            // The ban is listed for the admins only, and lifted, the link works
            let bans = try await api.call(.get, "/api/v1/groups/\(family.id)/bans", token: anaAgain)
            #expect(try bans.decode(Page<GroupBan>.self).items.map(\.person.username) == ["bea"])
            #expect(try await api.call(.get, "/api/v1/groups/\(family.id)/bans", token: beaAgain).status == .notFound)
            #expect(
                try await api.call(.delete, "/api/v1/groups/\(family.id)/bans/\(beaID)", token: anaAgain).status
                    == .noContent)
            let none = try await api.call(.get, "/api/v1/groups/\(family.id)/bans", token: anaAgain)
            #expect(try none.decode(Page<GroupBan>.self).items.isEmpty)
            try await api.joinByCode(beaAgain, another.code ?? "")
        }
    }

    @Test(
        "the owner hands the group on before leaving; deleting it takes its posts with it",
        arguments: StorageBackend.available)
    func transferAndDelete(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let club = try await api.createGroup(ana, "Club", access: .open)
            try await api.joinGroup(bea, club)
            let post = try await api.postToGroup(bea, club, "Track night")
            #expect(try await api.call(.post, "/api/v1/groups/\(club.id)/leave", token: ana).status == .conflict)
            // Only the owner transfers, and only to a member
            let beaID = try await api.userID("bea", token: ana)
            #expect(
                try await api.call(
                    .post, "/api/v1/groups/\(club.id)/transfer", token: bea, body: TransferGroupRequest(userID: beaID)
                ).status == .forbidden)
            let outsider = try await api.user("cai")
            let caiID = try await api.userID("cai", token: ana)
            #expect(
                try await api.call(
                    .post, "/api/v1/groups/\(club.id)/transfer", token: ana, body: TransferGroupRequest(userID: caiID)
                ).status == .unprocessableContent)
            let handed = try await api.call(
                .post, "/api/v1/groups/\(club.id)/transfer", token: ana, body: TransferGroupRequest(userID: beaID))
            #expect(try handed.decode(Group.self).standing == .admin)
            // Ana may leave now; Bea, the owner, deletes the group
            #expect(try await api.call(.post, "/api/v1/groups/\(club.id)/leave", token: ana).status == .noContent)
            #expect(try await api.call(.delete, "/api/v1/groups/\(club.id)", token: outsider).status == .forbidden)
            #expect(try await api.call(.delete, "/api/v1/groups/\(club.id)", token: bea).status == .noContent)
            #expect(try await api.call(.get, "/api/v1/groups/\(club.id)", token: bea).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)", token: bea).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/me/groups", token: bea).decode(Page<Group>.self).items.isEmpty)
        }
    }

    @Test(
        "a request to join waits among my requests until an admin answers it or I withdraw it",
        arguments: StorageBackend.available)
    func myRequests(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let team = try await api.createGroup(ana, "Iron Hour", access: .request)
            let crew = try await api.createGroup(ana, "Dawn Crew", access: .request)
            let requests = {
                try await api.call(.get, "/api/v1/me/group-requests", token: bea).decode(Page<Group>.self).items
            }
            #expect(try await requests().isEmpty)
            // Bea asks to join both: they wait among her requests, by name, not among her groups
            try await api.joinGroup(bea, team)
            try await api.joinGroup(bea, crew)
            #expect(try await requests().map(\.name) == ["Dawn Crew", "Iron Hour"])
            #expect(try await requests().allSatisfy { $0.standing == .requested })
            #expect(try await api.call(.get, "/api/v1/me/groups", token: bea).decode(Page<Group>.self).items.isEmpty)
            // Ana lets her into one; she withdraws the other
            let beaID = try await api.userID("bea", token: ana)
            _ = try await api.call(.post, "/api/v1/groups/\(team.id)/requests/\(beaID)/approve", token: ana)
            #expect(try await api.call(.post, "/api/v1/groups/\(crew.id)/leave", token: bea).status == .noContent)
            #expect(try await requests().isEmpty)
            #expect(
                try await api.call(.get, "/api/v1/me/groups", token: bea).decode(Page<Group>.self).items.map(\.name)
                    == ["Iron Hour"])
            // Nobody else's requests show: Ana has none
            #expect(
                try await api.call(.get, "/api/v1/me/group-requests", token: ana).decode(Page<Group>.self).items.isEmpty
            )
        }
    }
}
