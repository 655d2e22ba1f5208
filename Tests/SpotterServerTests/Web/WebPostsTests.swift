import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterServer

@Suite("The web app's posts: edit, delete, replies, links")
struct WebPostsTests {
    static let html: HTTPFields = [.accept: "text/html,application/xhtml+xml"]

    /// Signs `name` up in a browser and returns the browser with an API token for the same account.
    static func person(_ name: String, _ api: APIClient) async throws -> (WebBrowser, String) {
        var browser = WebBrowser(api)
        try await browser.signUp(name)
        let token = try await api.signin(name).decode(TokenResponse.self).accessToken
        return (browser, token)
    }

    @Test(
        "one's own post offers edit and delete and no kudos button; others get kudos",
        arguments: StorageBackend.available)
    func ownPost(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's post with one comment from Bo
            var (ana, anaToken) = try await Self.person("ana", api)
            var (bo, boToken) = try await Self.person("bob", api)
            let post = try await api.post(anaToken, "Leg day #legday with @bob")
            _ = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: boToken, body: CreateCommentRequest(text: "Nice"))
            // When Ana opens it, she sees the count but no button to give herself kudos
            let own = try await ana.get("/posts/\(post.id)")
            #expect(!own.text.contains(#"class="kudos-form"#))
            #expect(own.text.contains(#"href="/posts/\#(post.id)/edit""#))
            #expect(own.text.contains(#"href="/posts/\#(post.id)/delete""#))
            #expect(own.text.contains("1 comment<"))
            // And the tag and the mention are links
            #expect(own.text.contains(#"<a href="/tags/legday">#legday</a>"#))
            #expect(own.text.contains(#"<a href="/u/bob">@bob</a>"#))
            // When Bo opens it, he gets the kudos button and no edit or delete of the post (his comment's own)
            let other = try await bo.get("/posts/\(post.id)")
            #expect(other.text.contains(#"class="kudos-form"#))
            #expect(!other.text.contains(#"href="/posts/\#(post.id)/edit""#))
            #expect(!other.text.contains(#"href="/posts/\#(post.id)/delete""#))
            _ = boToken
        }
    }

    @Test("a malformed or unknown post id is the 404 page")
    func notFound() async throws {
        try await TestApp.run(.sqlite) { api in
            var visitor = WebBrowser(api)
            try await visitor.signUp("vic")
            for path in ["/posts/not-a-uuid", "/posts/\(UUID())", "/posts/not-a-uuid/kudos", "/posts/x/edit"] {
                let page = try await visitor.get(path, headers: Self.html)
                #expect(page.status == .notFound, "\(path)")
                #expect(page.text.contains("<h1>Not found</h1>"), "\(path)")
                #expect(!page.text.contains("is not an id"), "\(path)")
            }
        }
    }

    @Test(
        "the author edits a post's text, title and visibility; it shows edited and who sees it",
        arguments: StorageBackend.available)
    func edit(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var (ana, anaToken) = try await Self.person("ana", api)
            let post = try await api.workout(
                anaToken, "Squat day", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: api.clock.now - 7200)
            // When Ana edits the title, the text and who sees it
            let form = try await ana.get("/posts/\(post.id)/edit")
            #expect(form.text.contains(#"value="Squat day""#))
            let saved = try await ana.post(
                "/posts/\(post.id)/edit", [("title", "Heavy squats"), ("text", "Felt good"), ("visibility", "private")])
            #expect(saved.status == .seeOther)
            // Then the post shows the new words, "edited" and "Only me"
            let page = try await ana.get("/posts/\(post.id)")
            #expect(page.text.contains("Heavy squats"))
            #expect(page.text.contains("Felt good"))
            #expect(page.text.contains(">edited<"))
            #expect(page.text.contains(">Only me<"))
            // When she empties the title, the form comes back with what she typed and the field marked
            try await ana.get("/posts/\(post.id)/edit")
            let refused = try await ana.post(
                "/posts/\(post.id)/edit", [("title", " "), ("text", "Kept text"), ("visibility", "followers")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Kept text"))
            #expect(refused.text.contains(#"aria-invalid="true""#))
            #expect(refused.text.contains(#"<option value="followers" selected>"#))
        }
    }

    @Test("nobody but the author edits or deletes a post", arguments: StorageBackend.available)
    func strangers(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let (_, anaToken) = try await Self.person("ana", api)
            var (eve, _) = try await Self.person("eve", api)
            let post = try await api.post(anaToken, "Mine #gym")
            let hidden = try await api.post(anaToken, "Only mine", visibility: .private)
            try await eve.get("/posts/\(post.id)")
            #expect(try await eve.get("/posts/\(post.id)/edit").status == .forbidden)
            #expect(try await eve.post("/posts/\(post.id)/edit", [("text", "Hacked")]).status == .forbidden)
            #expect(try await eve.get("/posts/\(post.id)/delete").status == .forbidden)
            #expect(try await eve.post("/posts/\(post.id)/delete").status == .forbidden)
            // A private post doesn't exist for her at all
            #expect(try await eve.get("/posts/\(hidden.id)/edit").status == .notFound)
            #expect(try await eve.post("/posts/\(hidden.id)/delete").status == .notFound)
            let after = try await api.call(.get, "/api/v1/posts/\(post.id)", token: anaToken).decode(Post.self)
            #expect(after.text == "Mine #gym")
        }
    }

    @Test("the author deletes a post after confirming", arguments: StorageBackend.available)
    func deletePost(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var (ana, anaToken) = try await Self.person("ana", api)
            let post = try await api.post(anaToken, "Short-lived #gym")
            let confirm = try await ana.get("/posts/\(post.id)/delete")
            #expect(confirm.text.contains("Delete this post?"))
            #expect(confirm.text.contains(#"action="/posts/\#(post.id)/delete""#))
            #expect(try await ana.post("/posts/\(post.id)/delete").status == .seeOther)
            #expect(try await ana.get("/posts/\(post.id)").status == .notFound)
        }
    }

    @Test(
        "a site admin is offered Delete on someone's post, as the API lets them, and never Edit",
        arguments: StorageBackend.available)
    func adminDeletes(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's post, and Kim, a site admin, on the web
            let (_, anaToken) = try await Self.person("ana", api)
            var (kim, _) = try await Self.person("kim", api)
            _ = try await AdminService(storage: api.storage, clock: api.clock).setRole("kim", .admin)
            let post = try await api.post(anaToken, "Spam spam spam")

            // When Kim opens it
            let page = try await kim.get("/posts/\(post.id)")

            // Then she is offered Delete, which the API allows her, and not Edit, which it does not
            #expect(page.text.contains(#"href="/posts/\#(post.id)/delete""#))
            #expect(!page.text.contains(#"href="/posts/\#(post.id)/edit""#))
            #expect(try await kim.get("/posts/\(post.id)/edit").status == .forbidden)

            // When she confirms the delete
            #expect(try await kim.get("/posts/\(post.id)/delete").text.contains("Delete this post?"))
            #expect(try await kim.post("/posts/\(post.id)/delete").status == .seeOther)

            // Then the post is gone for its author too
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)", token: anaToken).status == .notFound)
        }
    }

    @Test(
        "replies show under their comment; comment and post authors delete comments, strangers don't",
        arguments: StorageBackend.available)
    func repliesAndCommentDeletion(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var (ana, anaToken) = try await Self.person("ana", api)
            var (bo, _) = try await Self.person("bob", api)
            var (eve, _) = try await Self.person("eve", api)
            let post = try await api.post(anaToken, "Squats #gym")
            // Given Bo's comment
            try await bo.get("/posts/\(post.id)")
            #expect(try await bo.post("/posts/\(post.id)/comments", [("text", "Strong!")]).status == .seeOther)
            let comments = try await api.call(.get, "/api/v1/posts/\(post.id)/comments", token: anaToken)
                .decode(Page<SpotterModels.Comment>.self)
            let comment = try #require(comments.items.first)
            // When Ana replies to it from the page
            let page = try await ana.get("/posts/\(post.id)")
            #expect(page.text.contains(#"name="parent_id" value="\#(comment.id)""#))
            #expect(
                try await ana.post("/posts/\(post.id)/comments", [("parent_id", "\(comment.id)"), ("text", "Thanks")])
                    .status == .seeOther)
            // Then the reply is under Bo's comment
            let threaded = try await ana.get("/posts/\(post.id)").text
            let replies = try #require(threaded.range(of: #"<ol class="replies""#))
            #expect(threaded[replies.lowerBound...].contains("Thanks"))
            #expect(threaded.contains("2 comments"))
            // And a reply to nothing is refused with the comment kept
            let refused = try await ana.post(
                "/posts/\(post.id)/comments", [("parent_id", "nonsense"), ("text", "Lost words")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Lost words"))
            // Eve may neither see a delete button nor delete
            let eveView = try await eve.get("/posts/\(post.id)")
            #expect(!eveView.text.contains("/comments/\(comment.id)/delete"))
            #expect(try await eve.post("/posts/\(post.id)/comments/\(comment.id)/delete").status == .forbidden)
            // Ana, the post's author, may delete Bo's comment after confirming
            let confirm = try await ana.get("/posts/\(post.id)/comments/\(comment.id)/delete")
            #expect(confirm.text.contains("Strong!"))
            #expect(try await ana.post("/posts/\(post.id)/comments/\(comment.id)/delete").status == .seeOther)
            #expect(!(try await ana.get("/posts/\(post.id)").text.contains("Strong!")))
        }
    }

    @Test(
        "the comment list and the post card come alone for live updates, rendered for the viewer",
        arguments: StorageBackend.available)
    func liveFragments(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var (ana, anaToken) = try await Self.person("ana", api)
            let (_, boToken) = try await Self.person("bob", api)
            let (_, eveToken) = try await Self.person("eve", api)
            let post = try await api.post(anaToken, "Open thread #gym")
            let empty = try await ana.get("/posts/\(post.id)/comments")
            #expect(empty.text.contains("No comments yet"))
            #expect(!empty.text.contains("<html"))
            for (token, text) in [(boToken, "From Bo"), (eveToken, "From Eve")] {
                _ = try await api.call(
                    .post, "/api/v1/posts/\(post.id)/comments", token: token, body: CreateCommentRequest(text: text))
            }
            // When Ana has blocked Eve, the list she fetches leaves Eve's comment out
            #expect(try await api.call(.post, "/api/v1/users/eve/block", token: anaToken).status.code < 300)
            let list = try await ana.get("/posts/\(post.id)/comments")
            #expect(list.text.contains("From Bo"))
            #expect(!list.text.contains("From Eve"))
            #expect(!list.text.contains("No comments yet"))
            // And the card alone shows an edit
            _ = try await api.call(
                .patch, "/api/v1/posts/\(post.id)", token: anaToken, body: UpdatePostRequest(text: "Closed thread"))
            let card = try await ana.get("/posts/\(post.id)?fragment=1")
            #expect(card.text.hasPrefix("<article"))
            #expect(card.text.contains("Closed thread"))
            #expect(card.text.contains(">edited<"))
        }
    }

    @Test(
        "a tag has its feed page, which search's tags link to; feeds and search have an h1",
        arguments: StorageBackend.available)
    func tagFeed(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var (ana, anaToken) = try await Self.person("ana", api)
            try await api.post(anaToken, "Morning #LegDay")
            try await api.post(anaToken, "Secret #legday", visibility: .private)
            var visitor = WebBrowser(api)
            let tag = try await visitor.get("/tags/legday")
            #expect(tag.status == .ok)
            #expect(tag.text.contains("<h1 class=\"page-title\">#legday</h1>"))
            #expect(tag.text.contains("Morning"))
            #expect(!tag.text.contains("Secret"))
            #expect(try await visitor.get("/tags/not%20a%20tag", headers: Self.html).status == .notFound)
            let search = try await ana.get("/search?q=%23leg")
            #expect(search.text.contains(#"href="/tags/legday""#))
            #expect(search.text.contains("<h1"))
            #expect(try await ana.get("/feed/global").text.contains("<h1 class=\"page-title\">Global feed</h1>"))
            // And search's page finds a workout by its title
            try await api.workout(
                anaToken, "Squat day", sets: [WorkoutSet(weightKg: 100, reps: 5)], at: api.clock.now - 7200)
            let found = try await ana.get("/search?q=squat")
            #expect(found.text.contains("Squat day"))
        }
    }

    @Test("site search finds groups anyone may find, linked to their pages", arguments: StorageBackend.available)
    func searchFindsGroups(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given an open club and a private family circle
            let (_, anaToken) = try await Self.person("ana", api)
            let club = try await api.createGroup(anaToken, "Harbour Runners", access: .open)
            _ = try await api.createGroup(anaToken, "Harbour Family", access: .private)
            // When a visitor searches the site
            var visitor = WebBrowser(api)
            let page = try await visitor.get("/search?q=harbour")
            // Then the club is there under Groups, linked to its page; the private circle is not
            #expect(page.text.contains("<h2>Groups</h2>"))
            #expect(page.text.contains(#"href="/groups/\#(club.id)""#))
            #expect(!page.text.contains("Harbour Family"))
            #expect(!page.text.contains("Nothing found"))
        }
    }

    @Test(
        "the kudos count leads to who gave them; a private post's list is not found",
        arguments: StorageBackend.available)
    func kudosPage(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            var (ana, anaToken) = try await Self.person("ana", api)
            let (_, boToken) = try await Self.person("bob", api)
            var (eve, _) = try await Self.person("eve", api)
            let post = try await api.post(anaToken, "Bench #gym")
            let hidden = try await api.post(anaToken, "Diary", visibility: .private)
            #expect(try await api.call(.post, "/api/v1/posts/\(post.id)/kudos", token: boToken).status == .ok)
            let card = try await ana.get("/posts/\(post.id)")
            #expect(card.text.contains(#"href="/posts/\#(post.id)/kudos""#))
            let page = try await ana.get("/posts/\(post.id)/kudos")
            #expect(page.status == .ok)
            #expect(page.text.contains("<h1>Kudos</h1>"))
            #expect(page.text.contains(#"href="/u/bob""#))
            #expect(try await eve.get("/posts/\(hidden.id)/kudos", headers: Self.html).status == .notFound)
        }
    }
}
