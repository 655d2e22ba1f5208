import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Child profiles and the safety rule over HTTP")
struct ChildProfileAPITests {
    @Test(
        "only guardians see and change a child; a co-guardian joins by invitation", arguments: StorageBackend.available)
    func guardiansOnly(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cara = try await api.user("cara")
            let made = try await api.call(
                .post, "/api/v1/me/children", token: ana, body: CreateChildProfileRequest(name: "Lou", birthYear: 2019))
            #expect(made.status == .created)
            let lou = try made.decode(ChildProfile.self)
            #expect(lou.guardians.map(\.username) == ["ana"])
            // Bad input is refused naming every field, and nothing is made.
            let bad = try await api.call(
                .post, "/api/v1/me/children", token: ana, body: CreateChildProfileRequest(name: " ", birthYear: 1980))
            #expect(bad.status == .unprocessableContent)
            #expect(Set(try bad.problem().errors?.map(\.field) ?? []) == ["name", "birth_year"])
            #expect(
                try await api.call(.get, "/api/v1/me/children", token: ana).decode(Page<ChildProfile>.self).items.count
                    == 1)
            // Nobody else knows Lou exists.
            for token in [bea, cara] {
                #expect(try await api.call(.get, "/api/v1/me/children/\(lou.id)", token: token).status == .notFound)
                #expect(
                    try await api.call(
                        .patch, "/api/v1/me/children/\(lou.id)", token: token,
                        body: UpdateChildProfileRequest(name: "X")
                    ).status == .notFound)
                #expect(try await api.call(.delete, "/api/v1/me/children/\(lou.id)", token: token).status == .notFound)
            }
            #expect(try await api.call(.get, "/api/v1/me/children/\(lou.id)").status == .unauthorized)
            // Ana invites Bea; until Bea accepts she sees only the invitation.
            let invited = try await api.call(
                .post, "/api/v1/me/children/\(lou.id)/guardians", token: ana,
                body: InviteGuardianRequest(username: "bea"))
            #expect(try invited.decode(ChildProfile.self).invitedGuardians.map(\.username) == ["bea"])
            #expect(try await api.call(.get, "/api/v1/me/children/\(lou.id)", token: bea).status == .notFound)
            let waiting = try await api.call(.get, "/api/v1/me/guardian-invitations", token: bea)
            #expect(try waiting.decode(Page<ChildProfile>.self).items.map(\.id) == [lou.id])
            #expect(
                try await api.call(.get, "/api/v1/me/guardian-invitations", token: cara).decode(Page<ChildProfile>.self)
                    .items.isEmpty)
            // Cara can't accept an invitation that isn't hers.
            #expect(
                try await api.call(.post, "/api/v1/me/guardian-invitations/\(lou.id)/accept", token: cara).status
                    == .notFound)
            #expect(
                try await api.call(.post, "/api/v1/me/guardian-invitations/\(lou.id)/accept", token: bea).status
                    == .noContent)
            let shared = try await api.call(.get, "/api/v1/me/children/\(lou.id)", token: bea).decode(ChildProfile.self)
            #expect(shared.guardians.map(\.username) == ["ana", "bea"])
            let renamed = try await api.call(
                .patch, "/api/v1/me/children/\(lou.id)", token: bea, body: UpdateChildProfileRequest(name: "Louise"))
            #expect(try renamed.decode(ChildProfile.self).name == "Louise")
            // A guardian steps down only themselves; the last one can't.
            let anaID = try await api.userID("ana", token: bea)
            let beaID = try await api.userID("bea", token: ana)
            #expect(
                try await api.call(.delete, "/api/v1/me/children/\(lou.id)/guardians/\(anaID)", token: bea).status
                    == .forbidden)
            #expect(
                try await api.call(.delete, "/api/v1/me/children/\(lou.id)/guardians/\(beaID)", token: bea).status
                    == .noContent)
            #expect(
                try await api.call(.delete, "/api/v1/me/children/\(lou.id)/guardians/\(anaID)", token: ana).status
                    == .conflict)
            #expect(try await api.call(.get, "/api/v1/me/children/\(lou.id)", token: bea).status == .notFound)
        }
    }

    @Test(
        "a post naming a child goes only to a private group, and never to search, hashtags or other groups",
        arguments: StorageBackend.available)
    func safetyRule(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let lou = try await api.call(
                .post, "/api/v1/me/children", token: ana, body: CreateChildProfileRequest(name: "Lou", birthYear: 2018)
            ).decode(ChildProfile.self)
            let family = try await api.createGroup(ana, "Family", access: .private)
            let club = try await api.createGroup(ana, "Club", access: .open)
            let team = try await api.createGroup(ana, "Team", access: .request)
            try await api.addMember(bea, username: "bea", to: family, admin: ana)
            try await api.addMember(bea, username: "bea", to: club, admin: ana)

            func post(_ token: String, visibility: Visibility? = nil, group: Group? = nil) async throws -> TestResponse
            {
                try await api.call(
                    .post, "/api/v1/posts", token: token,
                    body: CreatePostRequest(
                        kind: .note, text: "Her first 5k! #parkrun", visibility: visibility, groupID: group?.id,
                        childIDs: [lou.id]))
            }
            // Refused everywhere but the private group, naming the field, and nothing is stored.
            for visibility in Visibility.personal {
                let refused = try await post(ana, visibility: visibility)
                #expect(refused.status == .unprocessableContent, "\(visibility)")
                #expect(try refused.problem().errors?.map(\.field) == ["child_ids"])
            }
            for group in [club, team] {
                let refused = try await post(ana, group: group)
                #expect(refused.status == .unprocessableContent, "\(group.access)")
                #expect(try refused.problem().errors?.map(\.field) == ["child_ids"])
            }
            #expect(try await api.feed("/api/v1/users/ana/posts", token: ana).items.isEmpty)
            // Bea is in the family but does not manage Lou.
            let notHers = try await post(bea, group: family)
            #expect(notHers.status == .unprocessableContent)
            #expect(try notHers.problem().errors?.map(\.field) == ["child_ids[0]"])

            let made = try await post(ana, group: family)
            #expect(made.status == .created)
            let firstFiveK = try made.decode(Post.self)
            #expect(firstFiveK.children == [ChildSummary(id: lou.id, name: "Lou")])
            // The family sees it, with Lou's name, in the group and on its page...
            let seen = try await api.call(.get, "/api/v1/posts/\(firstFiveK.id)", token: bea).decode(Post.self)
            #expect(seen.children.map(\.name) == ["Lou"])
            #expect(
                try await api.feed("/api/v1/groups/\(family.id)/posts", token: bea).items.map(\.id) == [firstFiveK.id])
            // ...but search and the hashtag's feed never list it, even for them.
            for token in [ana, bea] {
                let search = try await api.call(.get, "/api/v1/search?q=parkrun", token: token).decode(
                    SearchResults.self)
                #expect(search.posts.isEmpty)
                #expect(try await api.feed("/api/v1/feeds/tags/parkrun", token: token).items.isEmpty)
            }
            // Strangers see nothing of it.
            let cara = try await api.user("cara")
            #expect(try await api.call(.get, "/api/v1/posts/\(firstFiveK.id)", token: cara).status == .notFound)
            #expect(try await api.feed("/api/v1/feeds/global", token: cara).items.isEmpty)
            // The family stays private while it holds Lou's posts.
            let opened = try await api.call(
                .patch, "/api/v1/groups/\(family.id)", token: ana, body: UpdateGroupRequest(access: .open))
            #expect(opened.status == .conflict)
            #expect(try opened.problem().errors?.map(\.field) == ["access"])
            #expect(try await api.call(.get, "/api/v1/groups/\(family.id)", token: cara).status == .notFound)
            // Deleting Lou's profile removes what names her.
            #expect(try await api.call(.delete, "/api/v1/me/children/\(lou.id)", token: ana).status == .noContent)
            #expect(try await api.call(.get, "/api/v1/posts/\(firstFiveK.id)", token: bea).status == .notFound)
            #expect(try await api.feed("/api/v1/groups/\(family.id)/posts", token: bea).items.isEmpty)
            #expect(
                try await api.call(
                    .patch, "/api/v1/groups/\(family.id)", token: ana, body: UpdateGroupRequest(access: .request)
                ).status == .ok)
        }
    }
}
