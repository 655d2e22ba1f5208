import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's encrypted groups: the form, the group's page, and the /e2e routes its script calls")
struct WebE2ETests {
    @Test(
        "an encrypted group is made from the form as private only (open is refused, saying so), with a sealed composer",
        arguments: StorageBackend.available)
    func encryptedGroupPage(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana on the new group form, which offers encryption
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            #expect(try await ana.get("/groups/new").text.contains(#"name="encrypted""#))
            // When she ticks Encrypted but leaves "Who can join" on Open
            let refused = try await ana.post(
                "/groups",
                [
                    ("name", "Family"), ("description", ""), ("access", "open"), ("time_zone", "UTC"),
                    ("encrypted", "on"),
                ])
            // Then no group is made, not even a private one: the form says why beside the choice, all kept
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"<p class="field-error" id="group-access-error">Must be private"#))
            #expect(refused.text.contains(#"name="access" value="open" checked"#))
            #expect(refused.text.contains(#"id="group-encrypted" aria-describedby="group-encrypted-help" checked"#))
            #expect(!(try await ana.get("/groups")).text.contains("Family"))
            try await ana.get("/groups/new")
            // When she chooses Private
            let id = try await Self.createEncrypted(&ana, "Family")
            // Then it is private, its page has the sealed composer and the scripts that seal, no plain form
            let page = try await ana.get("/groups/\(id)")
            #expect(page.text.contains("Private"))
            #expect(page.text.contains(#"id="e2e-group" data-group-id="\#(id)" data-is-admin="true""#))
            #expect(page.text.contains(#"<script src="/assets/e2e-posts.js" defer></script>"#))
            #expect(!page.text.contains(#"id="group-note-form""#))
            // And a plain group's page loads none of them
            let plain = try await WebGroupsTests.createGroup(&ana, "Club", access: "open")
            #expect(!(try await ana.get("/groups/\(plain)").text.contains("e2e-posts.js")))
        }
    }

    @Test(
        "the /e2e routes take the session and the page's token, answer problem+json, and serve members only",
        arguments: StorageBackend.available)
    func sessionRoutes(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted group, and Bea, who is not in it
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let id = try await Self.createEncrypted(&ana, "Family")
            var bea = WebBrowser(api)
            try await bea.signUp("bea")

            // When Ana's page asks where the group's keys stand, with her session
            let state = try await Self.json(&ana, .get, "/e2e/groups/\(id)/e2e")
            // Then it answers as the API does: no chain and no keys yet, for her device to make
            #expect(state.status == .ok)
            #expect(state.text.contains(#""chain":{"length":0}"#))
            #expect(!state.text.contains(#""epoch""#))

            // When a write comes without the page's CSRF token
            let forged = try await Self.json(&ana, .post, "/e2e/me/device-chain", "{}", csrf: false)
            // Then nothing runs
            #expect(forged.status == .forbidden)
            // When it carries the token but a statement that is not one
            let bad = try await Self.json(
                &ana, .post, "/e2e/me/device-chain", #"{"statement":{"body":"e30","signature":"AA","signer":"x"}}"#)
            // Then the refusal is problem+json for the script, not a page
            #expect(bad.status == .badRequest)
            #expect(bad.headers[.contentType] == "application/problem+json")
            // And a plain post is not taken here: the page's forms post those
            let plain = try await Self.json(
                &ana, .post, "/e2e/posts", #"{"kind":"note","text":"hello","group_id":"\#(id)"}"#)
            #expect(plain.status == .unprocessableContent)

            // When Bea asks for the group's keys, its chain, or its safety page
            let outsider = try await Self.json(&bea, .get, "/e2e/groups/\(id)/e2e")
            let chain = try await Self.json(&bea, .get, "/e2e/groups/\(id)/e2e/chain")
            let safety = try await bea.get("/groups/\(id)/safety")
            // Then there is no such group for her
            #expect(outsider.status == .notFound)
            #expect(outsider.headers[.contentType] == "application/problem+json")
            #expect(chain.status == .notFound)
            #expect(safety.status == .notFound)
            // While Ana's safety page lists her, for her browser to work her number out
            let mine = try await ana.get("/groups/\(id)/safety")
            #expect(mine.status == .ok)
            #expect(mine.text.contains(#"class="safety-member" data-user-id=""#))

            // And her encrypted groups are listed for her devices, a plain one and Bea not
            let plainID = try await WebGroupsTests.createGroup(&ana, "Club", access: "open")
            let mineList = try await Self.json(&ana, .get, "/e2e/groups")
            #expect(mineList.text.lowercased().contains(id.lowercased()))
            #expect(!mineList.text.lowercased().contains(plainID.lowercased()))
            #expect(try await Self.json(&bea, .get, "/e2e/groups").text == #"{"groups":[]}"#)
            // And the recovery words' list is a static asset, BIP-39's 2,048 words
            let words = try await ana.get("/assets/bip39-english.txt")
            #expect(words.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(words.text.split(separator: "\n").count == 2048)

            // When someone signed out asks
            var stranger = WebBrowser(api)
            let signedOut = try await Self.json(&stranger, .get, "/e2e/groups/\(id)/e2e")
            // Then it is a 401 in JSON, not the sign-in page
            #expect(signedOut.status == .unauthorized)
            #expect(signedOut.headers[.contentType] == "application/problem+json")
        }
    }

    @Test(
        "sealed content posted through /e2e renders as placeholders carrying what the script opens, never as text",
        arguments: StorageBackend.available)
    func sealedPlaceholders(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted group, keyed by her device as the app's would, and Ana signed in on the web
            let ana = try await api.e2ePerson("ana")
            let (group, epoch0, _) = try await api.encryptedGroup("Family", owner: ana)
            var web = WebBrowser(api)
            try await web.get("/signin")
            _ = try await web.post("/signin", [("login", "ana"), ("password", "correct horse battery")])
            try await web.get("/groups/\(group.id)")

            // When her page's script posts a sealed note and a sealed comment through the session routes
            let postID = PostID.generate(at: api.clock.now)
            let (sealed, _) = try sealedContent(
                "secret words", group: group, postID: postID.rawValue, epoch: 0, key: epoch0)
            let post = CreatePostRequest(kind: .note, groupID: group.id, sealed: sealed, id: postID)
            let posted = try await Self.json(&web, .post, "/e2e/posts", Self.text(post))
            let commentID = CommentID.generate(at: api.clock.now)
            let (comment, _) = try sealedContent(
                "kind words", group: group, postID: commentID.rawValue, epoch: 0, key: epoch0)
            let commented = try await Self.json(
                &web, .post, "/e2e/posts/\(postID)/comments",
                Self.text(CreateCommentRequest(text: "", sealed: comment, id: commentID)))
            #expect(posted.status == .created)
            #expect(commented.status == .created)

            // Then the group's page shows a locked placeholder with the sealed JSON, the group and the post
            let page = try await web.get("/groups/\(group.id)").text
            #expect(page.contains(#"class="sealed-post" data-sealed=""#))
            #expect(page.contains(sealed.body))
            #expect(page.contains(#"data-group-id="\#(group.id)" data-post-id="\#(postID)""#))
            #expect(page.contains("Encrypted post"))
            // And the post's page a placeholder for the comment, the sealed comment form, and no plain one
            let detail = try await web.get("/posts/\(postID)").text
            #expect(detail.contains(#"class="comment-text sealed-comment" data-sealed=""#))
            #expect(detail.contains(comment.body))
            #expect(detail.contains(#"id="sealed-comment-form""#))
            #expect(!detail.contains(#"id="comment-form""#))
            #expect(!detail.contains("reply-form"))
            #expect(!page.contains("secret words") && !detail.contains("kind words"))
        }
    }

    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try JSONCoding.encoder.encode(value), as: UTF8.self)
    }

    static func createEncrypted(_ browser: inout WebBrowser, _ name: String) async throws -> String {
        try await browser.get("/groups/new")
        let response = try await browser.post(
            "/groups",
            [("name", name), ("description", ""), ("access", "private"), ("time_zone", "UTC"), ("encrypted", "on")])
        guard response.status == .seeOther, let location = response.headers[.location],
            let id = location.split(separator: "/").last?.split(separator: "?").first
        else { throw UnexpectedStatus(response: response) }
        return String(id)
    }

    /// A script's JSON call: the session cookie, and the page's CSRF token in `X-CSRF-Token` unless `csrf` is false.
    static func json(
        _ browser: inout WebBrowser, _ method: HTTPRequest.Method, _ path: String, _ body: String? = nil,
        csrf: Bool = true
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.accept: "application/json"]
        if body != nil { headers[.contentType] = "application/json" }
        if csrf { headers[HTTPField.Name("X-CSRF-Token")!] = browser.csrf }
        return try await browser.send(method, path, body: body.map { ByteBuffer(string: $0) }, headers: headers)
    }
}
