import Foundation
import SpotterKit
import SpotterModels
import Testing

/// The groups screen against a real server (issue 28).
@Suite("Groups view model")
struct GroupsViewModelTests {
    static let password = "correct horse battery"

    /// Someone signed up on the server at `url`.
    static func person(_ name: String, _ url: URL) async throws -> SpotterClient {
        let client = SpotterClient(baseURL: url)
        try await client.signUp(email: "\(name)@example.com", username: name, password: password)
        return client
    }

    @Test("a group made, an open one joined, a request one asked and approved, and one left, each in my groups")
    func joinAndLeave() async throws {
        try await LiveServer.run { url, _ in
            // Given Ana's open running club and request-access strength team, and Bea's groups screen
            let ana = try await Self.person("ana", url)
            let club = try await ana.createGroup(CreateGroupRequest(name: "Riverside Runners", access: .open))
            let team = try await ana.createGroup(CreateGroupRequest(name: "Iron Hour", access: .request))
            let bea = try await Self.person("bea", url)
            let model = try await GroupsViewModel(client: bea, database: AppDatabase(path: nil))
            await model.load()
            #expect(await model.myGroups.isEmpty)
            #expect(await model.discovered.map(\.name).sorted() == ["Iron Hour", "Riverside Runners"])

            // When she searches, makes a group of her own, joins the club and asks to join the team
            await MainActor.run { model.query = "river" }
            await model.search()
            #expect(await model.discovered.map(\.id) == [club.id])
            let own = await model.create(CreateGroupRequest(name: "Bea's Crew", access: .private))
            let joined = await model.join(club.id)
            let asked = await model.join(team.id)

            // Then her groups are the club and her own, by name, and the team waits for Ana
            #expect(own?.standing == .owner)
            #expect(joined?.standing == .member && joined?.memberCount == 2)
            #expect(asked?.standing == .requested)
            #expect(await model.myGroups.map(\.name) == ["Bea's Crew", "Riverside Runners"])
            #expect(await model.discovered.first?.standing == .member, "the search's copy shows the change")

            // When Ana lets her in, and she loads the screen again
            #expect(try await ana.joinRequests(of: team.id).items.map(\.person.username) == ["bea"])
            try await ana.answerJoinRequest(in: team.id, from: try await bea.me().id, approve: true)
            await model.load()
            #expect(await model.myGroups.map(\.name) == ["Bea's Crew", "Iron Hour", "Riverside Runners"])

            // When she leaves the club
            await model.leave(club.id)

            // Then it is out of her groups, on the server too, and still found by the search
            #expect(await model.errorMessage == nil)
            #expect(await model.myGroups.map(\.name) == ["Bea's Crew", "Iron Hour"])
            #expect(try await bea.group(club.id).standing == GroupStanding.none)
            #expect(await model.discovered.first?.standing == GroupStanding.none)
        }
    }

    @Test("a private group is found by no one, opens with its link, and takes an invitation by name")
    func privateGroupByLink() async throws {
        try await LiveServer.run { url, _ in
            // Given Ana's private family circle, and a link that lets one person in
            let ana = try await Self.person("ana", url)
            let family = try await ana.createGroup(CreateGroupRequest(name: "The Kellers", access: .private))
            let link = try await ana.createInvitation(to: family.id, CreateInvitationRequest(maxUses: 1))
            let address = try #require(link.url)
            #expect(address.hasSuffix("/groups/join/\(try #require(link.code))"))
            let bea = try await Self.person("bea", url)
            let model = try await GroupsViewModel(client: bea, database: AppDatabase(path: nil))

            // Then without the link Bea cannot find it or open it
            await model.load()
            #expect(await model.discovered.isEmpty)
            await #expect(throws: SpotterClientError.self) { try await bea.group(family.id) }

            // When she opens the link, then joins with it (pasted whole, or only its code)
            let pasted = address.hasPrefix("/") ? url.absoluteString + address : address
            let preview = await model.preview(link: pasted)
            let joined = await model.join(link: try #require(link.code))

            // Then she saw the group before joining, and it is hers now
            #expect(preview?.name == "The Kellers" && preview?.standing == GroupStanding.none)
            #expect(joined?.standing == .member)
            #expect(await model.myGroups.map(\.id) == [family.id])

            // When Cyd tries the used-up link, and Ana invites him by name instead
            let cy = try await Self.person("cyd", url)
            let cys = try await GroupsViewModel(client: cy, database: AppDatabase(path: nil))
            #expect(await cys.join(link: pasted) == nil)
            #expect(await cys.errorMessage?.contains("used up") == true)
            _ = try await ana.createInvitation(to: family.id, CreateInvitationRequest(username: "cyd"))
            await cys.load()
            let invitation = try #require(await cys.invitations.first)
            #expect(invitation.group.name == "The Kellers" && invitation.invitedBy.username == "ana")
            await cys.accept(invitation)

            // Then he is in, and the invitation is gone
            #expect(await cys.myGroups.map(\.id) == [family.id])
            #expect(await cys.invitations.isEmpty)

            // When Bea leaves the private group, it is gone from her screen: it no longer exists for her
            await model.leave(family.id)
            #expect(await model.myGroups.isEmpty)
            #expect(await model.errorMessage == nil)
        }
    }
}
