import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's child profiles")
struct WebChildrenTests {
    @Test(
        "a parent adds a child, a co-guardian accepts, and nobody else sees or changes them",
        arguments: StorageBackend.available)
    func children(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            var ben = WebBrowser(api)
            try await ben.signUp("ben")
            var cai = WebBrowser(api)
            try await cai.signUp("cai")
            // Settings lead to the children page, empty at first
            #expect(try await ana.get("/settings").text.contains(#"href="/settings/children""#))
            #expect(try await ana.get("/settings/children").text.contains(#"id="no-children""#))
            // Bad input is refused with the field named, and what was typed stays
            let bad = try await ana.post("/settings/children", [("name", "Lou"), ("birth_year", "1990")])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("Birth Year: must be between"))
            #expect(bad.text.contains(#"value="Lou""#))
            // A good one is added
            let added = try await ana.post("/settings/children", [("name", "Lou"), ("birth_year", "2019")])
            #expect(added.status == .seeOther)
            let page = try await ana.get("/settings/children")
            #expect(page.text.contains(#"class="child-name">Lou<"#))
            let marker = try #require(page.text.range(of: #"data-child-id=""#))
            let lou = try #require(ChildProfileID(String(page.text[marker.upperBound...].prefix(36))))
            // Ana invites Ben; Ben sees the invitation on his page and accepts
            try await ana.post("/settings/children/\(lou)/guardians", [("username", "ben")])
            let invited = try await ben.get("/settings/children")
            #expect(invited.text.contains(#"action="/settings/children/\#(lou)/accept""#))
            #expect(try await ben.post("/settings/children/\(lou)/accept").status == .seeOther)
            #expect(try await ben.get("/settings/children").text.contains("Managed by ana, ben"))
            // Cai sees nothing of Lou, and can't delete or invite for her
            #expect(!(try await cai.get("/settings/children")).text.contains("Lou"))
            try await cai.get("/settings/children")
            #expect(
                try await cai.post("/settings/children/\(lou)/delete", [("confirm", "yes")]).status == .notFound)
            #expect(
                try await cai.post("/settings/children/\(lou)/guardians", [("username", "cai")]).status
                    == .notFound)
            // Deleting asks for confirmation, then deletes
            try await ana.get("/settings/children")
            #expect(try await ana.post("/settings/children/\(lou)/delete").status == .unprocessableContent)
            #expect(
                try await ana.post("/settings/children/\(lou)/delete", [("confirm", "yes")]).status == .seeOther)
            #expect(try await ben.get("/settings/children").text.contains(#"id="no-children""#))
        }
    }

    @Test(
        "the compose form posts for a child to the family only, and says why anywhere else",
        arguments: StorageBackend.available)
    func composeForAChild(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.post("/settings/children", [("name", "Lou"), ("birth_year", "2018")])
            let children = try await ana.get("/settings/children")
            let marker = try #require(children.text.range(of: #"data-child-id=""#))
            let lou = String(children.text[marker.upperBound...].prefix(36))
            try await ana.post("/groups", [("name", "Family"), ("access", "private"), ("time_zone", "UTC")])
            try await ana.post("/groups", [("name", "Club"), ("access", "open"), ("time_zone", "UTC")])
            let token = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let groups = try await api.call(.get, "/api/v1/me/groups", token: token).decode(Page<Group>.self).items
            let family = try #require(groups.first { $0.name == "Family" })
            let club = try #require(groups.first { $0.name == "Club" })
            // The compose page offers Lou
            let page = try await ana.get("/compose")
            #expect(page.text.contains(#"name="child" value="\#(lou)""#))
            // Public, or the open club: refused, the box marked, the text kept, nothing posted
            for audience in ["public", "group:\(club.id)"] {
                let refused = try await ana.post(
                    "/posts", [("kind", "note"), ("text", "Her first 5k!"), ("visibility", audience), ("child", lou)])
                #expect(refused.status == .unprocessableContent, "\(audience)")
                #expect(refused.text.contains(#"id="note-children-error""#))
                #expect(refused.text.contains("naming a child may go only to a private group"))
                #expect(refused.text.contains("Her first 5k!"))
                try await ana.get("/compose")
            }
            #expect(try await api.feed("/api/v1/users/ana/posts", token: token).items.isEmpty)
            // The family: posted, and it names Lou there
            let posted = try await ana.post(
                "/posts",
                [("kind", "note"), ("text", "Her first 5k!"), ("visibility", "group:\(family.id)"), ("child", lou)])
            #expect(posted.status == .seeOther)
            let feed = try await api.feed("/api/v1/groups/\(family.id)/posts", token: token).items
            #expect(feed.map { $0.children.map(\.name) } == [["Lou"]])
        }
    }
}
