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
        "an encrypted group is made from the form, private whatever was picked, with the sealed composer only",
        arguments: StorageBackend.available)
    func encryptedGroupPage(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana on the new group form, which offers encryption
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            #expect(try await ana.get("/groups/new").text.contains(#"name="encrypted""#))
            // When she makes an encrypted group, having picked open access
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

    static func createEncrypted(_ browser: inout WebBrowser, _ name: String) async throws -> String {
        try await browser.get("/groups/new")
        let response = try await browser.post(
            "/groups",
            [("name", name), ("description", ""), ("access", "open"), ("time_zone", "UTC"), ("encrypted", "on")])
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
