import Foundation
import SpotterKit
import SpotterModels
import Testing

/// Encrypted groups' posts in the terminal's plain listings (`spotter feed`, `spotter groups feed`): opened on a
/// device that holds the keys, said for what they are on one that does not, never a blank entry; and a workout
/// sealed on the terminal.
extension TerminalClientTests {
    @Test("spotter feed opens encrypted posts where this terminal holds the keys, and says what they are elsewhere")
    func sealedPostsInFeeds() async throws {
        try await UploadQueueTests.withServer(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's encrypted family group with Bea in it, each a device, and Cyd, a member without keys
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            let bea = try await Self.signedIn("bea", url, beside: ana)
            let cyd = try await Self.signedIn("cyd", url, beside: ana)
            _ = try await ana.run("e2e", "register")
            _ = try await bea.run("e2e", "register")
            let created = try await ana.run("e2e", "create", "--name", "The Kellers")
            let familyID = String(created.dropFirst("Created The Kellers (encrypted): ".count).dropLast())
            for (person, name) in [(bea, "bea"), (cyd, "cyd")] {
                _ = try await ana.run("groups", "invite", "The Kellers", "--username", name)
                _ = try await person.run("groups", "join", familyID)
            }
            #expect(try await ana.run("e2e", "sync", "The Kellers") == "Added 1 member.\n")
            _ = try await SpotterClient(baseURL: url, tokens: ana.tokens).follow("bea")

            // When Bea logs a workout to it, sealed on her terminal, with no time given
            let sent = try await bea.run(
                "e2e", "post", "The Kellers", "Felt strong", "--title", "Leg day", "--exercise",
                "Back Squat: 100x5, 105x3", "--exercise", "Lunge: 20x10")
            #expect(sent.hasPrefix("sent: sealed workout with 0 photos as "))

            // Then Ana's Following feed and the group's feed open it on her terminal, workout and all
            let opened = """
                  Strength · Leg day: 2 exercises
                    Back Squat: 100x5, 105x3
                    Lunge: 20x10
                  Felt strong
                  0 kudos · 0 comments
                """
            let following = try await ana.run("feed")
            #expect(following.contains("@bea · ") && following.contains(opened))
            #expect(try await ana.run("groups", "feed", "The Kellers").contains(opened))
            #expect(try await ana.run("e2e", "feed", "The Kellers").contains(opened))

            // And Cyd's terminal, a member's that is no device, says what the entry is instead of nothing
            let elsewhere = try await cyd.run("groups", "feed", "The Kellers")
            #expect(elsewhere.contains("@bea · ") && !elsewhere.contains("Leg day"))
            #expect(elsewhere.contains("  An encrypted post in The Kellers: this device has no keys for it yet.\n"))
        }
    }

    /// Someone new, signed in on a terminal of their own beside `other`'s.
    static func signedIn(_ name: String, _ url: URL, beside other: Spotter) async throws -> Spotter {
        try await SpotterClient(baseURL: url)
            .signUp(email: "\(name)@example.com", username: name, password: Self.password)
        let person = Spotter(home: other.home.appendingPathComponent(name))
        _ = try await person.run("login", name, "--server", url.absoluteString, "--password", Self.password)
        return person
    }
}
