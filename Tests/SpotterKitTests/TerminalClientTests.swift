import Foundation
import SpotterKit
import SpotterModels
import Testing

/// The `spotter` terminal client, run as a process against a real server, each user with their own home.
@Suite("Terminal client")
struct TerminalClientTests {
    static let password = "correct horse battery"

    @Test("login, post, feed, kudos; offline kudos wait in the outbox and land once later")
    func session() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            for name in ["ana", "bea"] {
                try await SpotterClient(baseURL: url)
                    .signUp(email: "\(name)@example.com", username: name, password: Self.password)
            }
            let homes = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-cli-\(UUID())")
            defer { try? FileManager.default.removeItem(at: homes) }
            let ana = Spotter(home: homes.appendingPathComponent("ana"))
            let bea = Spotter(home: homes.appendingPathComponent("bea"))
            let server = url.absoluteString

            #expect(
                try await ana.run("login", "ana", "--server", server, "--password", Self.password)
                    == "Signed in as @ana.\n")
            #expect(try await ana.run("post", "Tempo run #run").contains("sent: post \"Tempo run #run\""))
            let feed = try await ana.run("feed", "global")
            #expect(feed.contains("Tempo run #run"))
            // The first line is "@ana · <post id>".
            let postID = try #require(feed.split(separator: "\n").first?.components(separatedBy: " · ").last)
            #expect(PostID(postID) != nil)

            _ = try await bea.run("login", "bea", "--server", server, "--password", Self.password)
            let offline = try await bea.run("kudos", postID, "--server", "http://127.0.0.1:9")
            #expect(offline.contains("1 waiting to be sent (offline?)"))
            #expect(try await bea.run("outbox").contains("sent: kudos to \(postID)"))
            #expect(try await bea.run("outbox").contains("waiting") == false)
            #expect(try await ana.run("feed", "global").contains("1 kudos"))
        }
    }

    @Test("a post refused by the new-account limit says so and when it will be retried, not 'offline?'")
    func rateLimitedPost() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountPostsPerHour = 1 }) { url, _ in
            // Given Ana, a new account, signed in, who has posted once this hour
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            #expect(try await ana.run("post", "Easy run").contains("sent: post \"Easy run\""))

            // When she posts again
            let refused = try await ana.run("post", "Second run")

            // Then she is told the server refused it for now, why, and when it goes again; not that she is offline
            #expect(refused.contains("Refused for now: post \"Second run\": New accounts can post 1 times an hour."))
            #expect(refused.contains("Will retry at "))
            #expect(refused.contains("(in 60 min)"))
            #expect(!refused.contains("offline"))

            // When she looks at her outbox
            let listed = try await ana.run("outbox")

            // Then it lists the post with why and when, and does not send it before the server's time
            #expect(listed.contains("waiting #2: post \"Second run\" — refused for now: New accounts can post 1"))
            #expect(listed.contains("Next try at "))
            #expect(!listed.contains("sent:"))
            #expect(!(try await ana.run("feed", "global").contains("Second run")))
        }
    }

    @Test("a post the server refuses for good is listed with its reason, and can be sent again or dropped")
    func refusedPost() async throws {
        try await LiveServer.run { url, _ in
            // Given Ana, signed in
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }

            // When she posts a note without text
            let refused = try await ana.run("post", " ")

            // Then she is told why, the outbox lists it as failed with how to resend or drop it, and it drops
            #expect(refused.contains("refused: post \" \": Some fields are not valid. text: is required for a note."))
            let listed = try await ana.run("outbox")
            #expect(listed.contains("failed #1: post \" \" — Some fields are not valid. text: is required for a note."))
            #expect(listed.contains("`spotter outbox --retry 1` sends it again, `--discard 1` drops it"))
            #expect(try await ana.run("outbox", "--retry", "1").contains("refused: post \" \""))
            #expect(!(try await ana.run("outbox", "--discard", "1").contains("failed #1")))
        }
    }

    /// Ana, signed up on the server at `url` and signed in with the terminal client in a home of her own.
    static func signedInAna(_ url: URL) async throws -> Spotter {
        try await SpotterClient(baseURL: url)
            .signUp(email: "ana@example.com", username: "ana", password: Self.password)
        let ana = Spotter(
            home: FileManager.default.temporaryDirectory.appendingPathComponent("spotter-cli-\(UUID())"))
        _ = try await ana.run("login", "ana", "--server", url.absoluteString, "--password", Self.password)
        return ana
    }

    /// The `spotter` executable next to this test bundle (SwiftPM builds it with the tests).
    struct Spotter {
        let home: URL

        struct Failed: Error, CustomStringConvertible {
            let description: String
        }

        func run(_ arguments: String...) async throws -> String {
            let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("spotter")
            let executable =
                FileManager.default.fileExists(atPath: besideTests.path)
                ? besideTests
                : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
                    ".build/debug/spotter")
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["SPOTTER_HOME": home.path]) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            let status: Int32 = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            guard status == 0 else { throw Failed(description: "spotter \(arguments.joined(separator: " ")): \(text)") }
            return text
        }
    }
}
