import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's groups: lists, a group's page and feed, members, settings and invitation links")
struct WebGroupsTests {
    @Test(
        "a club is made from the form, found, joined, and its page shows its posts newest first, marked",
        arguments: StorageBackend.available)
    func clubPage(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, on the new group form
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let list = try await ana.get("/groups")
            #expect(list.text.contains(#"<a href="/groups" class="wide-only" aria-current="page">Groups</a>"#))
            #expect(list.text.contains(#"href="/groups/new""#))
            #expect(try await ana.get("/groups/new").text.contains(#"name="access" value="open" checked"#))
            // When she sends it without a name
            let refused = try await ana.post(
                "/groups", [("name", "   "), ("description", "Sunday long runs"), ("access", "request")])
            // Then the form comes back with the name marked and the rest kept
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"aria-invalid="true" aria-describedby="group-name-error""#))
            #expect(refused.text.contains(">Sunday long runs</textarea>"))
            #expect(refused.text.contains(#"name="access" value="request" checked"#))
            // When she names it
            let id = try await Self.createGroup(&ana, "Harbour Runners", access: "open")
            // Then it is hers, in her groups, with its settings one tab away
            let page = try await ana.get("/groups/\(id)?done=created")
            #expect(page.text.contains("Your group is ready."))
            #expect(page.text.contains(#"href="/groups/\#(id)/settings""#))
            #expect(try await ana.get("/groups").text.contains(#"<a class="group-name" href="/groups/\#(id)">"#))

            // When Bea finds it and joins
            var bea = WebBrowser(api)
            try await bea.signUp("bea")
            let found = try await bea.get("/groups?q=harbour")
            #expect(found.text.contains("Harbour Runners"))
            let before = try await bea.get("/groups/\(id)")
            #expect(before.text.contains(#"id="join-form""#))
            #expect(!before.text.contains(#"id="group-note-form""#))
            #expect(!before.text.contains("/groups/\(id)/settings"))
            let joined = try await bea.post("/groups/\(id)/join")
            #expect(joined.headers[.location] == "/groups/\(id)?done=joined")
            // Then she may post to it from its page, and the page is live on the group's topic
            let member = try await bea.get("/groups/\(id)")
            #expect(member.text.contains(#"id="group-note-form""#))
            #expect(member.text.contains(#"value="group:\#(id)""#))
            #expect(member.text.contains(#"data-live-topic="group:\#(id)" data-live-insert"#))
            #expect(member.text.contains(#"id="leave-form""#))
            let posted = try await bea.post(
                "/posts", [("kind", "note"), ("text", "First run with the club"), ("visibility", "group:\(id)")])
            #expect(posted.headers[.location] == "/groups/\(id)")
            try await ana.get("/groups/\(id)")
            try await ana.post(
                "/posts", [("kind", "note"), ("text", "Welcome, Bea"), ("visibility", "group:\(id)")])

            // Then Bea's list counts Ana's post as new (her own is not), until she opens the group
            #expect(try await bea.get("/groups").text.contains(#"<span class="badge new-posts-badge">1 new</span>"#))
            // And the group's page shows both, newest first, each marked with a link to the group
            let feed = try await bea.get("/groups/\(id)").text
            #expect(feed.contains("(1 new since you last looked)"))
            // And the page tells the server she has seen them, with the POST its script sends (`groups.js`)
            let seen = try Self.seenForm(in: feed)
            #expect(try await bea.post(seen.action, [("up_to", seen.upTo)]).status == .seeOther)
            #expect(!(try await bea.get("/groups")).text.contains("new-posts-badge"))
            let newer = try #require(feed.range(of: "Welcome, Bea"))
            let older = try #require(feed.range(of: "First run with the club"))
            #expect(newer.lowerBound < older.lowerBound)
            #expect(feed.contains(#"class="visibility-label group-label" href="/groups/\#(id)""#))
            // And in the top order too, where new posts are announced rather than put on top
            let top = try await bea.get("/groups/\(id)?order=top").text
            #expect(top.contains(#"<a href="/groups/\#(id)?order=top" aria-current="page" class="active">Top</a>"#))
            #expect(top.contains("Welcome, Bea") && top.contains("First run with the club"))
            #expect(top.contains(#"data-live-topic="group:\#(id)""#) && !top.contains("data-live-insert"))
            // And a signed-out visitor of the open club reads it, with a way to sign in and join
            var visitor = WebBrowser(api)
            let open = try await visitor.get("/groups/\(id)")
            #expect(open.text.contains("Welcome, Bea"))
            #expect(open.text.contains(#"href="/signin?return_to=/groups/\#(id)""#))
            #expect(!open.text.contains("data-live-topic"))
            // and the top bar leads a visitor to the groups anyone may find
            #expect(open.text.contains(#"<a href="/groups" aria-current="page">Groups</a>"#))

            // When Bea leaves
            try await bea.get("/groups/\(id)")
            let left = try await bea.post("/groups/\(id)/leave")
            #expect(left.headers[.location] == "/groups?done=left")
            #expect(try await bea.get("/groups/\(id)").text.contains(#"id="join-form""#))
            // And the owner has no Leave button
            #expect(!(try await ana.get("/groups/\(id)")).text.contains(#"id="leave-form""#))
        }
    }

    @Test(
        "a private group is a 404 to strangers; its link opens a preview, signing in comes back to it, Join lets in",
        arguments: StorageBackend.available)
    func privateGroupAndLink(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's private group, with a post
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let id = try await Self.createGroup(&ana, "Family Circle", access: "private")
            try await ana.get("/groups/\(id)")
            try await ana.post(
                "/posts", [("kind", "note"), ("text", "Sunday lunch walk"), ("visibility", "group:\(id)")])
            // Then strangers, signed in or out, find nothing at its addresses or in discovery
            var cai = WebBrowser(api)
            try await cai.signUp("cai")
            for path in ["/groups/\(id)", "/groups/\(id)/members", "/groups/\(id)/settings"] {
                #expect(try await cai.get(path).status == .notFound)
            }
            #expect(!(try await cai.get("/groups?q=family")).text.contains("Family Circle"))
            var visitor = WebBrowser(api)
            #expect(try await visitor.get("/groups/\(id)").status == .notFound)

            // When Ana makes an invitation link
            try await ana.get("/groups/\(id)/settings")
            let made = try await ana.post("/groups/\(id)/invitations", [("expires_in", "604800"), ("max_uses", "")])
            // Then the page shows it once, with a Copy link button for the script
            #expect(made.status == .ok)
            #expect(made.text.contains(#"data-copy="invitation-link""#))
            let link = try #require(Self.value(of: "invitation-link", in: made.text))
            let path = try #require(link.range(of: "/groups/join/")).lowerBound
            let joinPath = String(link[path...])
            #expect(!(try await ana.get("/groups/\(id)/settings")).text.contains(joinPath))

            // When someone signed out opens it
            let preview = try await visitor.get(joinPath)
            // Then it shows the group and sends them to sign in or up, coming back here
            #expect(preview.status == .ok)
            #expect(preview.text.contains("Family Circle"))
            #expect(preview.text.contains(#"href="/signin?return_to=\#(joinPath)""#))
            #expect(preview.text.contains(#"href="/signup?return_to=\#(joinPath)""#))
            #expect(!preview.text.contains("Sunday lunch walk"))
            let signup = try await visitor.get("/signup?return_to=\(joinPath)")
            #expect(signup.text.contains(#"name="return_to" value="\#(joinPath)""#))
            let created = try await visitor.post(
                "/signup",
                [
                    ("username", "bea"), ("email", "bea@example.com"), ("password", "correct horse battery"),
                    ("return_to", joinPath),
                ])
            #expect(created.headers[.location] == joinPath)
            // And signed in, Join lets her in
            let page = try await visitor.get(joinPath)
            #expect(page.text.contains(#"id="join-by-code""#))
            let joined = try await visitor.post(joinPath)
            #expect(joined.headers[.location] == "/groups/\(id)?done=joined")
            #expect(try await visitor.get("/groups/\(id)").text.contains("Sunday lunch walk"))
            #expect(try await visitor.get(joinPath).text.contains("You are a member already."))

            // And the link counts its use; revoked, it leads nowhere
            let settings = try await ana.get("/groups/\(id)/settings")
            #expect(settings.text.contains("1 use"))
            let invitation = try #require(Self.firstMatch(#"/invitations/([0-9A-Za-z-]+)/revoke"#, in: settings.text))
            let revoked = try await ana.post("/groups/\(id)/invitations/\(invitation)/revoke")
            #expect(revoked.headers[.location] == "/groups/\(id)/settings?done=revoked")
            #expect(try await cai.get(joinPath).status == .conflict)
            #expect(try await cai.get("/groups/join/spg_nothing").status == .notFound)
        }
    }

    @Test(
        "settings are for admins: field errors keep what was typed, invitations go by name, the owner deletes",
        arguments: StorageBackend.available)
    func settings(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's open club, which Bea joined
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let id = try await Self.createGroup(&ana, "Lifting Club", access: "open")
            var bea = WebBrowser(api)
            try await bea.signUp("bea")
            try await bea.get("/groups/\(id)")
            try await bea.post("/groups/\(id)/join")
            var cai = WebBrowser(api)
            try await cai.signUp("cai")
            // Then Bea, a member, may not open the settings or delete
            #expect(try await bea.get("/groups/\(id)/settings").status == .forbidden)
            #expect(try await bea.get("/groups/\(id)/delete").status == .forbidden)
            try await bea.get("/groups/\(id)")
            #expect(
                try await bea.post("/groups/\(id)/settings", [("name", "Mine now"), ("access", "open")]).status
                    == .forbidden)

            // When Ana saves a bad time zone and an empty name
            let page = try await ana.get("/groups/\(id)/settings")
            #expect(page.text.contains(#"value="Lifting Club""#))
            let refused = try await ana.post(
                "/groups/\(id)/settings",
                [("name", ""), ("description", "Heavy on Mondays"), ("access", "request"), ("time_zone", "Mars/Base")])
            // Then both are marked and the rest kept
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"aria-describedby="group-name-error""#))
            #expect(refused.text.contains(#"id="group-time-zone-error""#))
            #expect(refused.text.contains(">Heavy on Mondays</textarea>"))
            // When she saves good ones
            let saved = try await ana.post(
                "/groups/\(id)/settings",
                [
                    ("name", "Lifting Club"), ("description", "Heavy on Mondays"), ("access", "request"),
                    ("time_zone", "Europe/Lisbon"),
                ])
            #expect(saved.headers[.location] == "/groups/\(id)/settings?done=saved")
            let after = try await ana.get("/groups/\(id)")
            #expect(after.text.contains("Heavy on Mondays"))
            #expect(after.text.contains(">Ask to join</span>"))

            // When she invites someone who does not exist, then Cai
            try await ana.get("/groups/\(id)/settings")
            let nobody = try await ana.post("/groups/\(id)/invitations/named", [("username", "nobody_here")])
            #expect(nobody.status == .unprocessableContent)
            #expect(nobody.text.contains("There is no one called @nobody_here."))
            #expect(nobody.text.contains(#"value="nobody_here""#))
            let invited = try await ana.post("/groups/\(id)/invitations/named", [("username", "@cai")])
            #expect(invited.headers[.location] == "/groups/\(id)/settings?done=invited")
            #expect(try await ana.get("/groups/\(id)/settings").text.contains("@cai"))
            // Then Cai finds the invitation on his Groups page and accepts it on the group's page
            #expect(try await cai.get("/groups").text.contains(#"id="group-invitations""#))
            let invitedPage = try await cai.get("/groups/\(id)")
            #expect(invitedPage.text.contains("Accept and join"))
            try await cai.post("/groups/\(id)/join")
            #expect(try await cai.get("/groups/\(id)").text.contains(#"id="group-note-form""#))

            // When Ana deletes the group, after the confirmation page
            let confirm = try await ana.get("/groups/\(id)/delete")
            #expect(confirm.text.contains("Delete Lifting Club?"))
            let deleted = try await ana.post("/groups/\(id)/delete")
            #expect(deleted.headers[.location] == "/groups?done=deleted")
            // Then it is gone for everyone
            #expect(try await bea.get("/groups/\(id)").status == .notFound)
            #expect(try await ana.get("/groups/\(id)").status == .notFound)
        }
    }

    @Test(
        "members: admins answer requests and remove or ban; the owner makes admins and hands the group on",
        arguments: StorageBackend.available)
    func members(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's club that people ask to join, and Bea, Cai and Dan who ask
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let id = try await Self.createGroup(&ana, "Track Team", access: "request")
            var people: [WebBrowser] = []
            for name in ["bea", "cai", "dan"] {
                var person = WebBrowser(api)
                try await person.signUp(name)
                let page = try await person.get("/groups/\(id)")
                #expect(page.text.contains(#"id="ask-form""#))
                #expect(!page.text.contains(#"data-live-topic"#))
                let asked = try await person.post("/groups/\(id)/join")
                #expect(asked.headers[.location] == "/groups/\(id)?done=requested")
                people.append(person)
            }
            var bea = people[0]
            // Her groups page lists the request as waiting for an answer
            let asking = try await bea.get("/groups").text
            #expect(asking.contains(#"id="my-requests""#) && asking.contains("Waiting for an answer"))
            #expect(try await bea.get("/groups/\(id)").text.contains(#"id="withdraw-form""#))
            // (A request withdrawn and made again is one more request, said as such.)
            #expect(try await bea.post("/groups/\(id)/leave").headers[.location] == "/groups?done=withdrawn")
            try await bea.get("/groups/\(id)")
            try await bea.post("/groups/\(id)/join")
            // Then the members page is for members only, and Ana sees who waits
            #expect(try await bea.get("/groups/\(id)/members").status == .forbidden)
            #expect(try await ana.get("/groups/\(id)").text.contains("3 people asking to join"))
            let waiting = try await ana.get("/groups/\(id)/members")
            #expect(waiting.text.contains(#"id="join-requests""#))
            let beaID = try #require(Self.userID("bea", in: waiting.text))
            let caiID = try #require(Self.userID("cai", in: waiting.text))
            let danID = try #require(Self.userID("dan", in: waiting.text))
            // When she lets Bea and Cai in and turns Dan away
            #expect(
                try await ana.post("/groups/\(id)/requests/\(beaID)/approve").headers[.location]
                    == "/groups/\(id)/members?done=approved")
            try await ana.post("/groups/\(id)/requests/\(caiID)/approve")
            try await ana.post("/groups/\(id)/requests/\(danID)/deny")
            // Then Bea and Cai are members, and Dan may ask again
            #expect(try await bea.get("/groups/\(id)").text.contains(#"id="group-note-form""#))
            var dan = people[2]
            #expect(try await dan.get("/groups/\(id)").text.contains(#"id="ask-form""#))

            // When Ana makes Bea an admin
            let list = try await ana.get("/groups/\(id)/members")
            #expect(list.text.contains(#"aria-label="Make bea an admin""#))
            try await ana.post("/groups/\(id)/members/\(beaID)/role", [("role", "admin")])
            // Then Bea may remove Cai, but not Ana, and makes nobody an admin
            let asAdmin = try await bea.get("/groups/\(id)/members")
            #expect(asAdmin.text.contains(#"aria-label="Remove cai""#))
            #expect(!asAdmin.text.contains(#"aria-label="Remove ana""#))
            #expect(!asAdmin.text.contains("Make admin"))
            #expect(try await bea.get("/groups/\(id)/settings").status == .ok)
            // When Bea bans Cai
            let banned = try await bea.post("/groups/\(id)/members/\(caiID)/ban")
            #expect(banned.headers[.location] == "/groups/\(id)/members?done=banned")
            // Then Cai is out and may not ask again
            var cai = people[1]
            let outside = try await cai.get("/groups/\(id)")
            #expect(!outside.text.contains(#"id="ask-form""#))
            #expect(!outside.text.contains(#"id="group-note-form""#))
            // And the admins see the ban, which Bea lifts
            let listed = try await bea.get("/groups/\(id)/members")
            #expect(listed.text.contains(#"aria-label="Unban cai""#))
            let lifted = try await bea.post("/groups/\(id)/bans/\(caiID)/unban")
            #expect(lifted.headers[.location] == "/groups/\(id)/members?done=unbanned")
            #expect(!(try await bea.get("/groups/\(id)/members")).text.contains(#"id="group-bans""#))
            #expect(try await cai.get("/groups/\(id)").text.contains(#"id="ask-form""#))
            try await bea.get("/groups/\(id)/members")
            #expect(try await bea.post("/groups/\(id)/members/\(caiID)/ban").status == .seeOther)
            // When Ana hands the group to Bea
            try await ana.get("/groups/\(id)/members")
            let handed = try await ana.post("/groups/\(id)/members/\(beaID)/transfer")
            #expect(handed.headers[.location] == "/groups/\(id)/members?done=transferred")
            // Then Bea owns it and Ana, an admin now, may leave
            #expect(try await bea.get("/groups/\(id)").text.contains("You: Owner"))
            let anaPage = try await ana.get("/groups/\(id)")
            #expect(anaPage.text.contains("You: Admin"))
            #expect(anaPage.text.contains(#"id="leave-form""#))
            // And a stranger's forged removal is refused
            try await dan.get("/groups/\(id)")
            #expect(try await dan.post("/groups/\(id)/members/\(beaID)/remove").status == .forbidden)
        }
    }

    @Test(
        "the composer offers my groups as the audience; a workout with a photo goes to the group and stays there",
        arguments: StorageBackend.available)
    func composeToGroup(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            // Given Ana's club
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let id = try await Self.createGroup(&ana, "Harbour Runners", access: "private")
            // Then her composer offers it, and `?group=` chooses it
            let compose = try await ana.get("/compose")
            #expect(
                compose.text.contains(
                    #"<optgroup label="One of my groups"><option value="group:\#(id)">Harbour Runners</option>"#))
            let chosen = try await ana.get("/compose?group=\(id)")
            #expect(chosen.text.contains(#"<option value="group:\#(id)" selected>Harbour Runners</option>"#))

            // When she logs a workout with a photo to it
            let file = WebFile(
                name: "file", filename: "run.jpg", contentType: "image/jpeg", data: try WebPhotosTests.photo())
            let photo = try await ana.settled(
                try await ana.postMultipart("/uploads", files: [file], csrfHeader: true).decode(Media.self).id)
            let posted = try await ana.post(
                "/compose",
                [
                    ("kind", "workout"), ("title", "Harbour 10k"), ("type", "cardio"), ("exercise_name", "Run"),
                    ("exercise_distance", "10"), ("exercise_distance_unit", "km"), ("exercise_time", "50:00"),
                    ("media_id", photo.id.description), ("media_alt", "The harbour at dawn"),
                    ("visibility", "group:\(id)"),
                ])
            // Then it lands on the group's page, with its photo
            #expect(posted.headers[.location] == "/groups/\(id)")
            let page = try await ana.get("/groups/\(id)")
            #expect(page.text.contains("Harbour 10k"))
            #expect(page.text.contains(#"alt="The harbour at dawn""#))
            // And nobody else sees it on her profile
            var bea = WebBrowser(api)
            try await bea.signUp("bea")
            #expect(!(try await bea.get("/u/ana")).text.contains("Harbour 10k"))
            // And editing it keeps it in the group: its one audience is the group
            let postID = try #require(Self.firstMatch(#"data-post-id="([0-9A-Za-z-]+)""#, in: page.text))
            let edit = try await ana.get("/posts/\(postID)/edit")
            #expect(edit.text.contains(#"<option value="group" selected>Harbour Runners</option>"#))
            #expect(!edit.text.contains(#"value="public""#))

            // When a form names a group that is none of hers, or no group at all
            let elsewhere = try await ana.post(
                "/compose",
                [("kind", "note"), ("text", "Hello?"), ("visibility", "group:00000000-0000-7000-8000-000000000000")])
            let nonsense = try await ana.post(
                "/compose", [("kind", "note"), ("text", "Hello again"), ("visibility", "group:nonsense")])
            // Then the form comes back with the audience marked and the text kept
            for refused in [elsewhere, nonsense] {
                #expect(refused.status == .unprocessableContent)
                #expect(refused.text.contains(#"aria-invalid="true" aria-describedby="note-visibility-error""#))
            }
            #expect(nonsense.text.contains(">Hello again</textarea>"))
        }
    }

    @Test(
        "a family group holding a child's post stays private: the settings form says why and keeps what was typed",
        arguments: StorageBackend.available)
    func childSafeSettings(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's private family group with a post that names her child Lou
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let id = try await Self.createGroup(&ana, "Family", access: "private")
            let token = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let lou = try await api.call(
                .post, "/api/v1/me/children", token: token,
                body: CreateChildProfileRequest(name: "Lou", birthYear: 2019)
            ).decode(ChildProfile.self)
            let posted = try await api.call(
                .post, "/api/v1/posts", token: token,
                body: CreatePostRequest(
                    kind: .note, text: "Lou's first 5k", groupID: GroupID(id), childIDs: [lou.id]))
            #expect(posted.status == .created)
            // When she tries to open the group to everyone
            try await ana.get("/groups/\(id)/settings")
            let refused = try await ana.post(
                "/groups/\(id)/settings",
                [("name", "Family and friends"), ("description", ""), ("access", "open"), ("time_zone", "UTC")])
            // Then the form says why, with what she typed kept, and the group stays private
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("stays private while it does"))
            #expect(refused.text.contains(#"value="Family and friends""#))
            var visitor = WebBrowser(api)
            #expect(try await visitor.get("/groups/\(id)").status == .notFound)
        }
    }

    @Test(
        "opening a group's page is a GET that changes nothing: only the page's POST marks its posts seen",
        arguments: StorageBackend.available)
    func seenOnlyByPost(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Bea, a member of Ana's club, with a post of Ana's she has not seen
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let id = try await Self.createGroup(&ana, "Harbour Runners", access: "open")
            var bea = WebBrowser(api)
            try await bea.signUp("bea")
            try await bea.get("/groups/\(id)")
            try await bea.post("/groups/\(id)/join")
            try await ana.get("/groups/\(id)")
            try await ana.post("/posts", [("kind", "note"), ("text", "Welcome, Bea"), ("visibility", "group:\(id)")])

            // When something fetches the group's page with her cookie and nothing more (a link preview, a prefetch)
            let page = try await bea.get("/groups/\(id)")
            try await bea.get("/groups/\(id)")

            // Then the post is still new to her, in her list and in the API
            #expect(try await bea.get("/groups").text.contains(#"<span class="badge new-posts-badge">1 new</span>"#))
            let token = try await api.signin("bea").decode(TokenResponse.self).accessToken
            #expect(try await api.call(.get, "/api/v1/groups/\(id)", token: token).decode(Group.self).newPosts == 1)

            // When the page's own POST goes, as its script sends it (asking for JSON)
            let seen = try Self.seenForm(in: page.text)
            let marked = try await bea.post(seen.action, [("up_to", seen.upTo)], headers: [.accept: "application/json"])

            // Then it is seen, and the badge is gone
            #expect(marked.status == .noContent)
            #expect(try await api.call(.get, "/api/v1/groups/\(id)", token: token).decode(Group.self).newPosts == 0)
            #expect(!(try await bea.get("/groups")).text.contains("new-posts-badge"))
            // And a page with nothing new carries no such form
            #expect(!(try await bea.get("/groups/\(id)")).text.contains(#"id="seen-form""#))
        }
    }

    // MARK: Helpers

    /// The form a group's page posts to say its newest posts are seen: where it goes and up to which post.
    static func seenForm(in page: String) throws -> (action: String, upTo: String) {
        let action = try #require(firstMatch(#"<form method="post" action="([^"]+)"[^>]*id="seen-form""#, in: page))
        let upTo = try #require(value(of: "seen-up-to", in: page))
        return (action, upTo)
    }

    /// Makes a group through the form; its id, from where the form leads.
    static func createGroup(_ browser: inout WebBrowser, _ name: String, access: String) async throws -> String {
        try await browser.get("/groups/new")
        let response = try await browser.post(
            "/groups", [("name", name), ("description", ""), ("access", access), ("time_zone", "UTC")])
        guard response.status == .seeOther, let location = response.headers[.location],
            let id = firstMatch(#"^/groups/([0-9A-Za-z-]+)\?done=created$"#, in: location)
        else { throw UnexpectedStatus(response: response) }
        return id
    }

    /// The id of the person whose row links to `/u/<username>`, from the first of its buttons.
    static func userID(_ username: String, in page: String) -> String? {
        firstMatch(#"href="/u/\#(username)">.*?/(?:requests|members)/([0-9A-Za-z-]+)/"#, in: page)
    }

    /// The `value` of the input with `id`.
    static func value(of id: String, in page: String) -> String? {
        firstMatch(#"id="\#(id)"[^>]*value="([^"]*)""#, in: page)
    }

    /// The first capture of `pattern` in `text`.
    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: .dotMatchesLineSeparators),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}
