import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// `/compose?group=<id>` never falls back to a wider audience than asked: a group the person may post to is
/// chosen, an encrypted one gets the builder sealed in the browser (nothing on it posts in the clear), and any
/// other is refused.
@Suite("The web app's compose page keeps the audience asked for")
struct WebComposeAudienceTests {
    @Test(
        "the group picker offers exactly the groups a post may go to, by the one rule, whatever the standing",
        arguments: StorageBackend.available)
    func pickerIsThePostingRule(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, who owns one group, is a member, an admin, an invitee, a waiting asker, banned, and gone
            // from others of Bob's, and has an encrypted group of her own
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let anaToken = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let bo = try await api.user("bob")
            let anaID = try await api.userID("ana", token: bo)
            let owned = try await api.createGroup(anaToken, "Owned", access: .private)
            let member = try await api.createGroup(bo, "Member", access: .open)
            try await api.joinGroup(anaToken, member)
            let admin = try await api.createGroup(bo, "Admin", access: .request)
            try await api.addMember(anaToken, username: "ana", to: admin, admin: bo)
            _ = try await api.call(
                .patch, "/api/v1/groups/\(admin.id)/members/\(anaID)", token: bo,
                body: SetMemberRoleRequest(role: .admin))
            let invited = try await api.createGroup(bo, "Invited", access: .private)
            _ = try await api.invite(bo, invited, username: "ana")
            let asked = try await api.createGroup(bo, "Asked", access: .request)
            try await api.joinGroup(anaToken, asked)
            let banned = try await api.createGroup(bo, "Banned", access: .open)
            try await api.joinGroup(anaToken, banned)
            #expect(
                try await api.call(.put, "/api/v1/groups/\(banned.id)/bans/\(anaID)", token: bo).status == .noContent)
            let left = try await api.createGroup(bo, "Left", access: .open)
            try await api.joinGroup(anaToken, left)
            #expect(try await api.call(.post, "/api/v1/groups/\(left.id)/leave", token: anaToken).status == .noContent)
            let family = try await WebE2ETests.createEncrypted(&ana, "Family")

            // When she opens the compose page, and posts a note to each group over the API
            let page = try await ana.get("/compose")
            let regex = try NSRegularExpression(pattern: #"value="group:([0-9a-f-]+)""#)
            let offered = Set(
                regex.matches(in: page.text, range: NSRange(page.text.startIndex..., in: page.text)).compactMap {
                    Range($0.range(at: 1), in: page.text).map { String(page.text[$0]) }
                })
            var accepted: Set<String> = []
            for group in [owned, member, admin, invited, asked, banned, left] {
                let posted = try await api.call(
                    .post, "/api/v1/posts", token: anaToken,
                    body: CreatePostRequest(kind: .note, text: "Hello", groupID: group.id))
                if posted.status == .created { accepted.insert(group.id.description) }
            }

            // Then the picker offers exactly the groups the API takes her post to (the encrypted one is the
            // sealed builder's, never a plain post's)
            #expect(accepted == [owned.id.description, member.id.description, admin.id.description])
            #expect(offered == accepted)
            #expect(!offered.contains(family))
        }
    }

    @Test(
        "an encrypted group's compose page is the sealed builder: no public choice, no form that posts in the clear",
        arguments: StorageBackend.available)
    func encryptedGroup(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted family group
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let family = try await WebE2ETests.createEncrypted(&ana, "Family")

            // When she opens the compose page for it, from the group's page
            let page = try await ana.get("/compose?group=\(family)")

            // Then it is the workout builder, sealed for Family and hidden until its script holds the keys
            #expect(page.status == .ok)
            let text = page.text
            let form =
                #"<form class="stack" id="workout-form" [^>]* "#
                + #"data-sealed-group="\#(family)" data-time-zone="[^"]+" hidden>"#
            #expect(text.range(of: form, options: .regularExpression) != nil)
            #expect(text.contains("Logging a workout here needs JavaScript"))
            #expect(text.contains(#"<script src="/assets/e2e-workout.js" defer></script>"#))
            #expect(text.contains(#"id="sealed-workout-submit">Post workout to Family</button>"#))
            // And nothing on it offers Everyone, or posts anywhere: no audience choice, no action, no note form,
            // no plain photo upload (which would send the photo to the server in the clear)
            #expect(!text.contains(#"name="visibility""#))
            #expect(!text.contains(#"<option value="public""#))
            #expect(!text.contains(#"action="/compose""#) && !text.contains(#"action="/posts""#))
            #expect(!text.contains(#"id="note-form""#))
            #expect(!text.contains(#"name="photo""#))
            #expect(!text.contains(#"type="submit" class="button primary">Post workout"#))
            // And the template picker keeps the group
            #expect(!text.contains(#"id="template-form""#) || text.contains(#"name="group" value="\#(family)""#))

            // When a plain workout for it is posted anyway (no script), it is refused and drawn sealed again
            let posted = try await ana.post(
                "/compose",
                [
                    ("kind", "workout"), ("title", "Leg day"), ("type", "strength"), ("duration_min", "45"),
                    ("exercise_name", "Back Squat"), ("set_exercise", "0"), ("set_weight", "100"), ("set_reps", "5"),
                    ("text", ""), ("visibility", "group:\(family)"),
                ])
            #expect(posted.status == .unprocessableContent)
            #expect(posted.text.contains(#"data-sealed-group="\#(family)""#))
            #expect(!posted.text.contains(#"<option value="public""#))
            #expect(try await api.call(.get, "/api/v1/users/ana/posts").decode(Page<Post>.self).items.isEmpty)
        }
    }

    @Test(
        "a group the person may not post to is refused, never swapped for Everyone",
        arguments: StorageBackend.available)
    func refused(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted family group and her open club, and Bea, in neither
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let family = try await WebE2ETests.createEncrypted(&ana, "Family")
            let club = try await WebGroupsTests.createGroup(&ana, "Harbour Runners", access: "open")
            var bea = WebBrowser(api)
            try await bea.signUp("bea")

            // When Bea opens the compose page for each, or for no group at all
            let hidden = try await bea.get("/compose?group=\(family)")
            let open = try await bea.get("/compose?group=\(club)")
            let nonsense = try await bea.get("/compose?group=not-a-group")

            // Then a group she may not see does not exist, and one she is not in says so; none is a form
            #expect(hidden.status == .notFound && !hidden.text.contains(#"id="workout-form""#))
            #expect(open.status == .forbidden && !open.text.contains(#"id="workout-form""#))
            #expect(open.text.contains("Only members post to Harbour Runners. Join it first, then post."))
            #expect(nonsense.status == .notFound && !nonsense.text.contains(#"id="workout-form""#))

            // When she joins the club, its compose page chooses it in both forms
            try await bea.get("/groups/\(club)")
            _ = try await bea.post("/groups/\(club)/join")
            let chosen = try await bea.get("/compose?group=\(club)").text
            #expect(chosen.components(separatedBy: #"<option value="group:\#(club)" selected>"#).count == 3)
            #expect(!chosen.contains("data-sealed-group"))
        }
    }
}
