import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Search over HTTP")
struct SearchAPITests {
    @Test("people by prefix, substring and typo; never blocked or suspended ones", arguments: StorageBackend.available)
    func people(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("anastasia")
            _ = try await api.call(
                .patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(displayName: "Ana Lifts"))
            let viewer = try await api.user("viewer")
            _ = try await api.user("marathon_mike")
            _ = try await api.user("annabelle")
            func found(_ q: String, token: String? = nil) async throws -> [String] {
                let escaped = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
                let results = try await api.call(.get, "/api/v1/search?type=users&q=\(escaped)", token: token)
                    .decode(SearchResults.self)
                return results.users.map(\.username)
            }
            #expect(try await found("anast").first == "anastasia")
            #expect(try await found("@AnaSt").first == "anastasia")
            #expect(try await found("lifts") == ["anastasia"])
            #expect(try await found("marahton").contains("marathon_mike"))  // swapped letters
            #expect(try await found("mike").contains("marathon_mike"))
            #expect(try await found("an").count == 2)
            #expect(try await found("zzzzzz").isEmpty)
            _ = try await api.call(.post, "/api/v1/users/viewer/block", token: ana)
            #expect(try await found("anastasia", token: viewer).isEmpty)
        }
    }

    @Test(
        "hashtags by prefix with public counts; posts by their words, privacy kept", arguments: StorageBackend.available
    )
    func tagsAndPosts(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            _ = try await api.post(ana, "Heavy squats today #legday #legs")
            _ = try await api.post(ana, "More squats #legday")
            _ = try await api.post(ana, "Secret squats #legsecret", visibility: .followers)
            let tags = try await api.call(.get, "/api/v1/search?type=tags&q=%23leg").decode(SearchResults.self).tags
            #expect(tags == [TagCount(tag: "legday", postsCount: 2), TagCount(tag: "legs", postsCount: 1)])
            let posts = try await api.call(.get, "/api/v1/search?type=posts&q=squats", token: bea).decode(
                SearchResults.self)
            #expect(posts.posts.count == 2)
            let prefix = try await api.call(.get, "/api/v1/search?type=posts&q=heav%20squ").decode(SearchResults.self)
            #expect(prefix.posts.map(\.text) == ["Heavy squats today #legday #legs"])
            let own = try await api.call(.get, "/api/v1/search?q=secret", token: ana).decode(SearchResults.self)
            #expect(own.posts.count == 1)
            #expect(try await api.call(.get, "/api/v1/search?q=").status == .badRequest)
            #expect(try await api.call(.get, "/api/v1/search?q=x&type=clubs").status == .badRequest)
            let odd = try await api.call(.get, "/api/v1/search?q=%22%29%20OR%20*%20--%20NEAR").decode(
                SearchResults.self)
            #expect(odd.posts.isEmpty)
        }
    }

    @Test(
        "groups anyone may find, by a word of their name, signed in or out; never a private one",
        arguments: StorageBackend.available)
    func groups(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given an open club, a request-to-join team and a private family circle, all "Harbour"
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            _ = try await api.createGroup(ana, "Harbour Runners", access: .open)
            _ = try await api.createGroup(ana, "Harbour Strength", access: .request)
            _ = try await api.createGroup(ana, "Harbour Family", access: .private)
            // When someone searches the site for "harbour"
            let everything = try await api.call(.get, "/api/v1/search?q=harbour", token: bea)
                .decode(SearchResults.self)
            let signedOut = try await api.call(.get, "/api/v1/search?type=groups&q=HARB").decode(SearchResults.self)
            let member = try await api.call(.get, "/api/v1/search?type=groups&q=harbour", token: ana)
                .decode(SearchResults.self)
            // Then the open and request groups are found, as `GET /groups?q=` finds them; the private one is not,
            // even by its owner (it is never listed: members reach it from their groups)
            #expect(Set(everything.groups.map(\.name)) == ["Harbour Runners", "Harbour Strength"])
            #expect(Set(signedOut.groups.map(\.name)) == ["Harbour Runners", "Harbour Strength"])
            #expect(signedOut.users.isEmpty && signedOut.posts.isEmpty)
            #expect(member.groups.allSatisfy { $0.standing == .owner })
            #expect(!member.groups.contains { $0.name == "Harbour Family" })
        }
    }

    @Test(
        "one kind pages on with next_cursor and has_more, every result once; a cursor needs its type",
        arguments: StorageBackend.available)
    func pages(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given five posts about intervals and one people search with nothing more to show
            let ana = try await api.user("ana")
            var made: Set<String> = []
            for lap in 1...5 { made.insert(try await api.post(ana, "Intervals, lap \(lap)").id.description) }
            // When the posts are searched two at a time, following next_cursor
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let path = "/api/v1/search?type=posts&q=intervals&limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await api.call(.get, path, token: ana).decode(SearchResults.self)
                seen += page.posts.map(\.id.description)
                pages += 1
                #expect(page.hasMore == (page.nextCursor != nil))
                cursor = page.nextCursor
            } while cursor != nil && pages < 5
            // Then three pages hold each post once, and the last says no more
            #expect(pages == 3)
            #expect(seen.count == 5 && Set(seen) == made)
            let people = try await api.call(.get, "/api/v1/search?type=users&q=ana", token: ana)
                .decode(SearchResults.self)
            #expect(!people.hasMore && people.nextCursor == nil)
            // And a cursor without its type, of another type, or made up is refused, naming the parameter
            let first = try await api.call(.get, "/api/v1/search?type=posts&q=intervals&limit=2")
                .decode(SearchResults.self)
            let next = try #require(first.nextCursor)
            for (query, field) in [
                ("q=intervals&cursor=\(next)", "type"), ("type=users&q=intervals&cursor=\(next)", "cursor"),
                ("type=posts&q=intervals&cursor=bm90LWEtY3Vyc29y", "cursor"),
            ] {
                let refused = try await api.call(.get, "/api/v1/search?\(query)")
                #expect(refused.status == .badRequest, "\(query)")
                #expect(try refused.decode(Problem.self).errors?.map(\.field) == [field], "\(query)")
            }
        }
    }
}
