import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

/// The web app's lists ask the same rule as the API: an open group's post is listed for its members only,
/// and a ban closes it everywhere.
@Suite("The web app's Following and hashtag pages, and an open group's posts")
struct WebGroupPostReachTests {
    /// A person in the browser, and their API token for what the test sets up.
    static func person(_ api: APIClient, _ name: String) async throws -> (WebBrowser, String) {
        var browser = WebBrowser(api)
        try await browser.signUp(name)
        let token = try await api.signin(name).decode(TokenResponse.self).accessToken
        return (browser, token)
    }

    @Test(
        "members find it in Following and the hashtag; followers outside, visitors and the banned do not",
        arguments: StorageBackend.available)
    func lists(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Mia's open club, with Max a member, and Fox, Lou and Ben following Mia: Fox never joined,
            // Lou joined and left, Ben was banned
            let (miaBrowser, miaToken) = try await Self.person(api, "mia")
            let club = try await api.createGroup(miaToken, "Harbour Runners", access: .open)
            var tokens: [String: String] = [:]
            var browsers = ["mia": miaBrowser, "visitor": WebBrowser(api)]
            for name in ["max", "fox", "lou", "ben"] {
                let (browser, token) = try await Self.person(api, name)
                (browsers[name], tokens[name]) = (browser, token)
                try await api.follow(tokens[name] ?? "", "mia")
            }
            for name in ["max", "lou", "ben"] { try await api.joinGroup(tokens[name] ?? "", club) }
            let left = try await api.call(.post, "/api/v1/groups/\(club.id)/leave", token: tokens["lou"])
            #expect(left.status == .noContent)
            let benID = try await api.userID("ben", token: miaToken)
            #expect(
                try await api.call(.put, "/api/v1/groups/\(club.id)/bans/\(benID)", token: miaToken).status
                    == .noContent)
            /// What `name`'s browser shows at `path`.
            func page(_ name: String, _ path: String) async throws -> TestResponse {
                var browser = try #require(browsers[name])
                defer { browsers[name] = browser }
                return try await browser.get(path)
            }
            // When Mia posts to the club
            let post = try await api.postToGroup(miaToken, club, "Harbour tempo loop #harbourtempo")

            // Then Mia and Max find it in Following, and Max on the hashtag's page
            #expect(try await page("mia", "/feed/following").text.contains("Harbour tempo loop"))
            #expect(try await page("max", "/feed/following").text.contains("Harbour tempo loop"))
            #expect(try await page("max", "/tags/harbourtempo").text.contains("Harbour tempo loop"))
            // And nobody outside the club finds it in either: not a follower who never joined, one who left,
            // one banned, nor a visitor
            for name in ["fox", "lou", "ben"] {
                #expect(!(try await page(name, "/feed/following")).text.contains("Harbour tempo loop"), "\(name)")
            }
            for name in ["fox", "lou", "ben", "visitor"] {
                #expect(!(try await page(name, "/tags/harbourtempo")).text.contains("Harbour tempo loop"), "\(name)")
            }
            // And Fox and a visitor still read it on its own page and the club's, as anyone may
            #expect(try await page("fox", "/posts/\(post.id)").text.contains("Harbour tempo loop"))
            #expect(try await page("visitor", "/groups/\(club.id)").text.contains("Harbour tempo loop"))
            // But for Ben, banned, it does not exist: its page is not found, and the club's page shows no posts
            #expect(try await page("ben", "/posts/\(post.id)").status == .notFound)
            #expect(!(try await page("ben", "/groups/\(club.id)")).text.contains("Harbour tempo loop"))
        }
    }
}
