import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Group notifications")
struct GroupNotificationTests {
    static func inbox(_ api: APIClient, _ token: String) async throws -> [NotificationGroup] {
        try await NotificationsAPITests.inbox(api, token)
    }

    @Test(
        "invitations, requests, acceptances, removals and new posts reach the right people, never a post's words",
        arguments: StorageBackend.available)
    func notifications(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cara = try await api.user("cara")
            let dan = try await api.user("dan")
            let team = try await api.createGroup(ana, "Strength Team", access: .request)
            // Bea asks to join: Ana, who runs the team, hears of it; nobody else does
            try await api.joinGroup(bea, team)
            let request = try await Self.inbox(api, ana).first
            #expect(request?.type == .groupJoinRequest)
            #expect(request?.text == "bea asked to join Strength Team")
            // Ana lets her in: Bea hears of it
            let beaID = try await api.userID("bea", token: ana)
            _ = try await api.call(.post, "/api/v1/groups/\(team.id)/requests/\(beaID)/approve", token: ana)
            #expect(try await Self.inbox(api, bea).first?.text == "You're in: ana let you into Strength Team")
            // Ana invites Cara by name: Cara hears of it
            _ = try await api.invite(ana, team, username: "cara")
            let invitation = try await Self.inbox(api, cara).first
            #expect(invitation?.type == .groupInvitation)
            #expect(invitation?.text == "ana invited you to Strength Team")
            // Bea posts in the team: Ana hears who posted where, never the words; Cara (only invited) and Dan
            // (a stranger) hear nothing
            try await api.postToGroup(bea, team, "Deadlift triple at 180 #pr")
            let posted = try await Self.inbox(api, ana).first
            #expect(posted?.type == .groupPost)
            #expect(posted?.text == "bea posted in Strength Team")
            #expect(try await Self.inbox(api, cara).allSatisfy { $0.type != .groupPost })
            #expect(try await Self.inbox(api, dan).isEmpty)
            // Ana removes Bea: Bea hears of it
            _ = try await api.call(.delete, "/api/v1/groups/\(team.id)/members/\(beaID)", token: ana)
            #expect(try await Self.inbox(api, bea).first?.text == "You were removed from Strength Team")
            // New posts in a group are batched unless a person says otherwise
            let preferences = try await api.call(.get, "/api/v1/notifications/preferences", token: ana)
                .decode(NotificationPreferences.self)
            #expect(preferences.setting(for: .groupPost) == .batched)
        }
    }

    @Test("a post naming a child tells the family only where it is", arguments: StorageBackend.available)
    func childPost(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let family = try await api.createGroup(ana, "Family", access: .private)
            try await api.addMember(bea, username: "bea", to: family, admin: ana)
            let lou = try await api.call(
                .post, "/api/v1/me/children", token: ana, body: CreateChildProfileRequest(name: "Lou", birthYear: 2018)
            ).decode(ChildProfile.self)
            let made = try await api.call(
                .post, "/api/v1/posts", token: ana,
                body: CreatePostRequest(
                    kind: .note, text: "Lou ran her first 5k!", groupID: family.id, childIDs: [lou.id]))
            #expect(made.status == .created)
            let told = try await Self.inbox(api, bea)
            #expect(told.map(\.text) == ["ana posted in Family"])
            #expect(!told.contains { $0.text.contains("Lou") })
        }
    }

    @Test("a club of more than 500 members tells nobody of a new post", arguments: StorageBackend.available)
    func bigClub(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let club = try await api.createGroup(ana, "Big Club", access: .open)
            try await api.joinGroup(bea, club)
            // 499 more members (501 in all), loaded straight into the database
            let bulk = try #require(api.storage as? any BulkLoading)
            let now = api.clock.now
            let people = (0..<499).map { index in
                AccountRecord(
                    id: .generate(at: now), username: "member\(index)", email: "member\(index)@example.com",
                    passwordHash: nil, displayName: "Member \(index)", appleSubject: nil, createdAt: now)
            }
            try await bulk.loadAccounts(people)
            try await bulk.loadGroupMembers(people.map { (club.id, $0.id, .member, now) })
            #expect(try await api.call(.get, "/api/v1/groups/\(club.id)").decode(Group.self).memberCount == 501)
            try await api.postToGroup(bea, club, "Marathon pace run")
            #expect(try await Self.inbox(api, ana).isEmpty)
            // Two leave and one joins: 500, and the next post is news again
            _ = try await api.call(.post, "/api/v1/groups/\(club.id)/leave", token: bea)
            _ = try await api.call(.delete, "/api/v1/groups/\(club.id)/members/\(people[0].id)", token: ana)
            let cara = try await api.user("cara")
            try await api.joinGroup(cara, club)
            try await api.postToGroup(cara, club, "Hello club")
            #expect(try await Self.inbox(api, ana).map(\.type) == [.groupPost])
        }
    }
}
