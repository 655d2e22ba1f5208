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
            #expect(offline.contains("1 waiting to be sent"))
            #expect(try await bea.run("outbox").contains("sent: kudos to \(postID)"))
            #expect(try await bea.run("outbox").contains("waiting") == false)
            #expect(try await ana.run("feed", "global").contains("1 kudos"))
        }
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
