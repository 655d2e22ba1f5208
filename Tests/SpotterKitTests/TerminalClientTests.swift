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
            #expect(try await bea.run("outbox") == "Nothing waiting to be sent.\n")
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
            let refused = try await ana.fail("post", "Second run")

            // Then she is told the server refused it, why, and when it goes again; not that she is offline; and the
            // command fails
            #expect(
                refused.contains("Refused: post \"Second run\": New accounts can post 1 time an hour. Try again at "))
            #expect(refused.contains("(in 60 min); it waits in the outbox until then"))
            #expect(!refused.contains("offline"))
            #expect(!refused.contains("1 times"))

            // When she looks at her outbox
            let listed = try await ana.run("outbox")

            // Then it lists the post with why and when, and does not send it before the server's time
            #expect(
                listed.contains(
                    "waiting #2: post \"Second run\" — refused for now: New accounts can post 1 time an hour"))
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
            let refused = try await ana.fail("post", " ")

            // Then she is told why, the outbox lists it as failed with how to resend or drop it, and it drops
            #expect(
                refused.contains(
                    "refused: post \" \": Some fields are not valid. text: is required for a note without photos."))
            let listed = try await ana.run("outbox")
            #expect(
                listed.contains(
                    "failed #1: post \" \" — Some fields are not valid. text: is required for a note without photos."))
            #expect(listed.contains("`spotter outbox --retry 1` sends it again, `--discard 1` drops it"))
            #expect(try await ana.run("outbox", "--retry", "1").contains("refused: post \" \""))
            #expect(!(try await ana.run("outbox", "--discard", "1").contains("failed #1")))
        }
    }

    @Test("its files go under $XDG_CONFIG_HOME/spotter, else $HOME/.config/spotter, whatever the password file says")
    func configFolder() async throws {
        try await LiveServer.run { url, _ in
            // Given Ana's account, and two folders that are not the system user's home
            try await SpotterClient(baseURL: url)
                .signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-home-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            let cli = Spotter(home: root)
            let login = ["login", "ana", "--server", url.absoluteString, "--password", Self.password]

            // When she signs in with HOME set, and again with XDG_CONFIG_HOME set too
            let home = root.appendingPathComponent("home")
            let xdg = root.appendingPathComponent("xdg")
            let first = try await cli.execute(login, environment: ["SPOTTER_HOME": nil, "HOME": home.path])
            let second = try await cli.execute(
                login, environment: ["SPOTTER_HOME": nil, "HOME": home.path, "XDG_CONFIG_HOME": xdg.path])

            // Then the session is kept under each, as the README says
            #expect(first.status == 0 && second.status == 0)
            #expect(FileManager.default.fileExists(atPath: home.path + "/.config/spotter/session.json"))
            #expect(FileManager.default.fileExists(atPath: home.path + "/.config/spotter/server"))
            #expect(FileManager.default.fileExists(atPath: xdg.path + "/spotter/session.json"))
        }
    }

    @Test("a server that is down: 'cannot reach …: connection refused', and the command fails")
    func serverDown() async throws {
        // Given nothing listening on port 9 of this machine
        let cli = Spotter(home: FileManager.default.temporaryDirectory.appendingPathComponent("spotter-cli-\(UUID())"))
        defer { try? FileManager.default.removeItem(at: cli.home) }

        // When Ana asks for the global feed there
        let said = try await cli.fail("feed", "global", "--server", "http://127.0.0.1:9")

        // Then she reads what happened in a line, not an error domain's dump
        #expect(said.contains("cannot reach http://127.0.0.1:9: connection refused"))
        #expect(!said.contains("NSURLErrorDomain"))
        #expect(!said.contains("UserInfo"))
    }

    @Test("`spotter tail > file` writes each post as it comes, not at exit")
    func tailFlushes() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana signed in, and `spotter tail` writing into a file
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            let file = ana.home.appendingPathComponent("tail.txt")
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let output = try FileHandle(forWritingTo: file)
            defer { try? output.close() }
            let tail = ana.process(["tail"], standardOutput: output)
            tail.standardError = FileHandle.nullDevice
            try tail.run()
            defer { tail.terminate() }

            // When a post comes while it runs (posted again until the live connection has joined)
            let client = SpotterClient(baseURL: url, tokens: ana.tokens)
            var written = ""
            for attempt in 0..<40 where !written.contains("Morning run #run") {
                if attempt % 10 == 0 {
                    _ = try await client.createPost(CreatePostRequest(kind: .note, text: "Morning run #run \(attempt)"))
                }
                try await Task.sleep(for: .milliseconds(250))
                written = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            }

            // Then the file has it while tail still runs
            #expect(tail.isRunning)
            #expect(written.contains("Morning run #run"))
        }
    }

    @Test("counts read right: 1 exercise, 1 comment")
    func plurals() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's workout with one exercise and one comment on it
            let ana = try await Self.signedInAna(url)
            defer { try? FileManager.default.removeItem(at: ana.home) }
            _ = try await ana.run("log-workout", "--title", "Quick squats", "--exercise", "Back Squat: 100x5")
            let client = SpotterClient(baseURL: url, tokens: ana.tokens)
            let post = try #require(try await client.feed(.global, limit: 1).items.first)
            _ = try await client.addComment(CreateCommentRequest(text: "Nice"), on: post.id)

            // When she reads the feed
            let feed = try await ana.run("feed", "global")

            // Then the counts agree with their nouns
            #expect(feed.contains("Quick squats: 1 exercise\n"))
            #expect(feed.contains("· 1 comment\n"))
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

    /// The `spotter` executable next to this test bundle (SwiftPM builds it with the tests), run for one user.
    struct Spotter {
        let home: URL
        /// Variables every run has, under the changes a run names (the server's settings, for `spotter admin`).
        var environment: [String: String] = [:]

        /// The session the terminal client keeps, for a test's own SpotterClient as the same person.
        var tokens: FileTokenStore { FileTokenStore(path: home.appendingPathComponent("session.json").path) }

        struct Failed: Error, CustomStringConvertible {
            let description: String
        }

        static var executable: URL {
            let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("spotter")
            return FileManager.default.fileExists(atPath: besideTests.path)
                ? besideTests
                : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
                    ".build/debug/spotter")
        }

        /// Runs `spotter` with `arguments`; throws unless it exits 0.
        func run(_ arguments: String...) async throws -> String {
            let (status, text) = try await execute(arguments)
            guard status == 0 else { throw Failed(description: "spotter \(arguments.joined(separator: " ")): \(text)") }
            return text
        }

        /// Runs `spotter` with `arguments`, expecting it to fail (exit non-zero); returns what it printed.
        func fail(_ arguments: String...) async throws -> String {
            let (status, text) = try await execute(arguments)
            guard status != 0 else {
                throw Failed(description: "spotter \(arguments.joined(separator: " ")) succeeded: \(text)")
            }
            return text
        }

        /// The exit status and what it printed (stdout and stderr together).
        func execute(
            _ arguments: [String], environment changes: [String: String?] = [:]
        ) async throws -> (
            status: Int32, text: String
        ) {
            let output = Pipe()
            let process = process(arguments, environment: changes, standardOutput: output)
            process.standardError = output
            let status: Int32 = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (status, text)
        }

        /// A process for `arguments`, not yet started; `environment` replaces the variables it names (nil removes
        /// one), `SPOTTER_HOME` being this user's home unless replaced.
        func process(
            _ arguments: [String], environment changes: [String: String?] = [:], standardOutput: Any
        ) -> Process {
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["SPOTTER_HOME"] = home.path
            environment.merge(self.environment) { $1 }
            for (name, value) in changes { environment[name] = value }
            process.environment = environment
            process.standardOutput = standardOutput
            return process
        }
    }
}
