import Foundation
import SpotterKit
import SpotterModels
import Testing

/// `spotter groups …`, run as a process against a real server.
extension TerminalClientTests {
    @Test("spotter groups: create, a link joined, discover, post and feed, a request approved, invitations, leave")
    func groups() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana and Bea, each signed in with the terminal client
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            try await SpotterClient(baseURL: url)
                .signUp(email: "bea@example.com", username: "bea", password: Self.password)
            let bea = Spotter(home: ana.home.appendingPathComponent("bea"))
            _ = try await bea.run("login", "bea", "--server", url.absoluteString, "--password", Self.password)

            // When Ana makes an open club and a private family circle, and a link to the circle
            let created = try await ana.run(
                "groups", "create", "--name", "Riverside Runners", "--access", "open", "--description", "Easy miles")
            #expect(created.hasPrefix("Created Riverside Runners (open): "))
            let family = try await ana.run("groups", "create", "--name", "The Kellers", "--access", "private")
            let familyID = try #require(family.split(separator: " ").last.map { String($0.dropLast()) })
            let invite = try await ana.run("groups", "invite", "The Kellers", "--max-uses", "1", "--expires-in", "7d")
            let link = try #require(invite.split(separator: "\n").first.map(String.init))

            // Then the link is a whole address, and says its limits
            #expect(link.hasPrefix("http") && link.contains("/groups/join/"))
            #expect(invite.contains("Used 0 of 1 times; works until "))

            // When Bea joins the circle by the link and the club by name, and looks around
            #expect(try await bea.run("groups", "join-link", link).contains("You are a member of The Kellers"))
            let found = try await bea.run("groups", "discover")
            #expect(found.contains("Riverside Runners · open · 1 member"))
            #expect(!found.contains("The Kellers"))
            #expect(try await bea.run("groups", "join", "Riverside Runners").contains("You are a member of"))
            let mine = try await bea.run("groups", "list")

            // Then her list has both, and the circle's members show its owner
            #expect(mine.contains("Riverside Runners · open · 2 members · member · "))
            #expect(mine.contains("The Kellers · private · 2 members · member · \(familyID)"))
            let members = try await ana.run("groups", "members", familyID)
            #expect(members == "@ana · ana (owner)\n@bea · bea\n")

            // When Bea posts to the circle, Ana reads its feed, and the public never sees it
            let posted = try await bea.run("groups", "post", "The Kellers", "Who's cooking tonight?")
            #expect(posted.contains("sent: post \"Who's cooking tonight?\" to group \(familyID)"))
            #expect(try await ana.run("groups", "feed", "The Kellers").contains("Who's cooking tonight?"))
            #expect(
                try await ana.run("groups", "feed", "The Kellers", "--order", "top").contains("Who's cooking tonight?"))
            #expect(try await ana.run("groups", "show", familyID).contains("· owner · 1 new · "))
            #expect(!(try await ana.run("feed", "global").contains("Who's cooking tonight?")))

            // When Ana makes a team one asks to join, Bea asks, and Ana lets her in
            _ = try await ana.run("groups", "create", "--name", "Iron Hour", "--access", "request")
            #expect(try await bea.run("groups", "join", "Iron Hour").contains("Asked to join Iron Hour"))
            #expect(try await ana.run("groups", "requests", "Iron Hour").contains("@bea · bea · asked "))
            #expect(try await ana.run("groups", "approve", "Iron Hour", "@bea") == "Let @bea in.\n")
            #expect(try await ana.run("groups", "requests", "Iron Hour") == "No one is waiting.\n")

            // Then the used link is listed, and once revoked it is marked so
            let listed = try await ana.run("groups", "invitations", "The Kellers")
            #expect(listed.contains("link by @ana · Used 1 of 1 times"))
            let invitationID = try #require(listed.split(separator: " ").first.map(String.init))
            #expect(try await ana.run("groups", "revoke", "The Kellers", invitationID) == "Revoked \(invitationID).\n")
            #expect(try await ana.run("groups", "invitations", "The Kellers").contains("· revoked"))

            // When Bea leaves the club, it is out of her list
            _ = try await bea.run("groups", "leave", "Riverside Runners")
            let after = try await bea.run("groups", "list")
            #expect(!after.contains("Riverside Runners"))
            #expect(after.contains("Iron Hour · request · 2 members · member"))

            // And a name that is no group she can see, or what she may not do, is refused in a line
            let unknown = try await bea.fail("groups", "show", "Nowhere Club")
            #expect(unknown.contains("No group called Nowhere Club that you can see; give its id."))
            #expect(!unknown.contains("Usage:"))
            #expect(try await bea.fail("groups", "requests", "Iron Hour").contains("Only the group's admins"))
        }
    }
}
