import Foundation
import SpotterKit
import SpotterModels
import Testing

/// The terminal client with nobody signed in, and its outbox with nothing in it.
extension TerminalClientTests {
    @Test("before `spotter login`, a post is refused with how to sign in, and nothing is queued")
    func refusedBeforeLogin() async throws {
        try await LiveServer.run { url, _ in
            // Given a terminal where nobody has signed in
            let cli = Spotter(
                home: FileManager.default.temporaryDirectory.appendingPathComponent("spotter-cli-\(UUID())"))
            defer { try? FileManager.default.removeItem(at: cli.home) }
            let server = ["--server", url.absoluteString]

            // When someone posts a note, a workout, a photo or kudos
            let photo = cli.home.appendingPathComponent("run.jpg")
            try FileManager.default.createDirectory(at: cli.home, withIntermediateDirectories: true)
            try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: photo)
            let attempts = [
                ["post", "Tempo run"], ["log-workout", "--title", "Squats", "--exercise", "Back Squat: 100x5"],
                ["post", "With a photo", "--photo", photo.path], ["kudos", PostID.generate().description],
            ]
            for attempt in attempts {
                let (status, said) = try await cli.execute(attempt + server)

                // Then each is refused (exit 1), saying how to sign in, not that it waits to be sent
                #expect(status == 1, "\(attempt): \(said)")
                #expect(said.contains("not signed in: run `spotter login`"), "\(attempt): \(said)")
                #expect(!said.contains("waiting"), "\(attempt): \(said)")
            }
            // and the outbox holds none of them
            let outbox = try await cli.execute(["outbox"] + server)
            #expect(outbox.status == 0 && outbox.text == "Nothing waiting to be sent.\n", "\(outbox.text)")
        }
    }

    @Test("what waits in the outbox when the login has ended says to sign in, and goes after `spotter login`")
    func outboxAfterSignOut() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's post, made offline, waiting in her outbox
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            let offline = try await ana.run("post", "Hill repeats", "--server", "http://127.0.0.1:9")
            #expect(offline.contains("1 waiting to be sent (offline?)"))
            // and her terminal's login signed out meanwhile (from another device, or by a password reset)
            let tokens = try #require(try await ana.tokens.load())
            try await SpotterClient(baseURL: url, tokens: MemoryTokenStore(tokens)).signOut()

            // When she looks at her outbox
            let (status, listed) = try await ana.execute(["outbox"])

            // Then it says what waits and that she must sign in for it to go; the command fails
            #expect(status == 1, "\(listed)")
            #expect(listed.contains("1 waiting to be sent: not signed in: run `spotter login`"), "\(listed)")
            #expect(
                listed.contains("waiting #1: post \"Hill repeats\" — not signed in: run `spotter login`."), "\(listed)")

            // When she signs in again, her outbox sends it
            _ = try await ana.run("login", "ana", "--password", Self.password)
            #expect(try await ana.run("outbox").contains("sent: post \"Hill repeats\""))
            #expect(try await ana.run("outbox") == "Nothing waiting to be sent.\n")
        }
    }
}
