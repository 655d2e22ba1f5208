import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// A group's photo and a child's photo, set through the web app's forms without script.
@Suite("The web app's group and child photos")
struct WebAvatarChoiceTests {
    @Test(
        "an admin gives the group a photo in its settings; members see it; a member cannot; removed, initials return",
        arguments: StorageBackend.available)
    func groupPhoto(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            var ben = WebBrowser(api)
            try await ben.signUp("ben")
            let id = try await WebGroupsTests.createGroup(&ana, "Riverside Runners", access: "open")
            try await ben.get("/groups/\(id)")
            #expect(try await ben.post("/groups/\(id)/join").status == .seeOther)

            // The settings page offers a photo; a form without a file says what is missing
            let settings = try await ana.get("/groups/\(id)/settings")
            #expect(settings.text.contains(#"id="group-avatar-photo" name="photo" type="file""#))
            let empty = try await ana.postMultipart(
                "/groups/\(id)/avatar", files: [], csrfHeader: false, csrfField: true)
            #expect(empty.status == .unprocessableContent)
            #expect(empty.text.contains(#"id="group-avatar-error""#))

            // Saved, the group's page shows it to a member, and anyone may fetch it
            try await ana.get("/groups/\(id)/settings")
            let saved = try await ana.postMultipart(
                "/groups/\(id)/avatar",
                files: [
                    WebFile(name: "photo", filename: "club.jpg", contentType: "image/jpeg", data: try Self.photo())
                ],
                csrfHeader: false, csrfField: true)
            #expect(saved.status == .seeOther)
            let group = try await api.call(.get, "/api/v1/groups/\(id)").decode(Group.self)
            let url = try #require(group.avatarURL)
            #expect(try await ben.get("/groups/\(id)").text.contains(#"src="\#(url)""#))
            #expect(try await api.fetch(url).status == .ok)

            // A member may not change it
            try await ben.get("/groups/\(id)")
            let byMember = try await ben.postMultipart(
                "/groups/\(id)/avatar",
                files: [WebFile(name: "photo", filename: "me.jpg", contentType: "image/jpeg", data: try Self.photo())],
                csrfHeader: false, csrfField: true)
            #expect(byMember.status == .forbidden)
            #expect(try await api.call(.get, "/api/v1/groups/\(id)").decode(Group.self).avatarURL == url)

            // Removed: the initials are back and the photo stops
            try await ana.get("/groups/\(id)/settings")
            #expect(try await ana.post("/groups/\(id)/avatar/remove").status == .seeOther)
            let after = try await ana.get("/groups/\(id)").text
            #expect(!after.contains(#"src="\#(url)""#))
            #expect(try await api.fetch(url).status == .notFound)
        }
    }

    @Test(
        "a guardian gives a child a photo; the page shows it through a signed URL nobody else gets",
        arguments: StorageBackend.available)
    func childPhoto(backend: StorageBackend) async throws {
        try await TestApp.run(backend, configure: BlobBackend.local.configure) { api in
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            try await ana.get("/settings/children")
            #expect(
                try await ana.post("/settings/children", [("name", "Lou"), ("birth_year", "2019")]).status == .seeOther)
            let page = try await ana.get("/settings/children")
            let marker = try #require(page.text.range(of: #"data-child-id=""#))
            let lou = try #require(ChildProfileID(String(page.text[marker.upperBound...].prefix(36))))
            #expect(page.text.contains(#"id="child-photo-\#(lou)" name="photo" type="file""#))

            let saved = try await ana.postMultipart(
                "/settings/children/\(lou)/avatar",
                files: [WebFile(name: "photo", filename: "lou.jpg", contentType: "image/jpeg", data: try Self.photo())],
                csrfHeader: false, csrfField: true)
            #expect(saved.status == .seeOther)
            let shown = try await ana.get("/settings/children").text
            let start = try #require(shown.range(of: #"<img class="avatar" src=""#))
            let url = String(shown[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(
                of: "&amp;", with: "&")
            #expect(url.contains("signature="))
            #expect(try await api.fetch(url).status == .ok)
            // The same photo without the signature opens for nobody, Ana included
            let plain = String(url.prefix { $0 != "?" })
            #expect(try await api.fetch(plain).status == .notFound)

            try await ana.get("/settings/children")
            #expect(try await ana.post("/settings/children/\(lou)/avatar/remove").status == .seeOther)
            #expect(!(try await ana.get("/settings/children")).text.contains(#"<img class="avatar" src=""#))
            #expect(try await api.fetch(url).status == .notFound)
        }
    }

    static func photo() throws -> Data {
        try TestImages.encode(TestImages.cornered(width: 320, height: 320), as: ".jpg[Q=90]")
    }
}
