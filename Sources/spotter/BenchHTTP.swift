import ArgumentParser
import Foundation
import SpotterCore
import SpotterModels
import SpotterSQLite

extension Bench {
    /// `spotter bench http-plan`: what the HTTP load scripts (wrk with Lua, `scripts/bench-feed` and
    /// `scripts/bench-kudos`) need from a seeded database: access tokens of seeded people, and posts to give
    /// kudos to.
    struct HTTPPlan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "http-plan",
            abstract: "Write access tokens of seeded accounts, and public post ids, for the HTTP load scripts.",
            discussion: """
                Draws --viewers accounts among the seeded athletes (`spotter seed`), gives each a day-long access \
                token written one per line to --tokens-file, and writes the ids of --posts recent public posts one \
                per line to --posts-file. Both files are readable by their owner only. Tokens are made straight in \
                the database, so a benchmark needs no bcrypt sign-ins; use a database made for benchmarks.
                """)

        @OptionGroup var options: ServerOptions
        @Option(help: "Seeded accounts to make tokens for.") var viewers = 1000
        @Option(help: "Where to write the tokens.") var tokensFile: String
        @Option(help: "Public posts to list (0 for none).") var posts = 0
        @Option(help: "Where to write the post ids.") var postsFile: String?
        @Option(help: "Random seed for drawing the accounts.") var seed: UInt64 = 7
        @Option(
            help: ArgumentHelp(
                "Only the large community's probe accounts that follow exactly this many people "
                    + "(10, 100, 1000 or 5000; see `spotter seed --community large`).")
        )
        var following: Int?
        @Option(
            help: ArgumentHelp(
                "Write this seeded person's token, then --viewers of their followers' tokens, as TOKEN USER_ID "
                    + "lines (for `spotter bench fanout --topic following`).")
        )
        var followersOf: String?

        func validate() throws {
            guard viewers >= 1 else { throw ValidationError("--viewers must be at least 1.") }
            guard posts == 0 || postsFile != nil else { throw ValidationError("--posts needs --posts-file.") }
            if let following, !SeedProbes.levels.contains(following) {
                throw ValidationError(
                    "--following must be one of \(SeedProbes.levels.map(String.init).joined(separator: ", ")).")
            }
        }

        func run() async throws {
            let (viewers, tokensFile, posts, postsFile, seed) = (viewers, tokensFile, posts, postsFile, seed)
            let (following, followersOf) = (following, followersOf)
            try await withSeedableStorage(options) { storage, bulk in
                let accounts = try await bulk.size().accounts
                guard accounts > 0 else { throw ValidationError("The database is empty: run `spotter seed` first.") }
                if let followersOf {
                    let (lines, followers) = try await Self.followerTokens(
                        of: followersOf, count: viewers, storage: storage)
                    try Self.write(lines, to: tokensFile)
                    ProgressBar.write(
                        "\(followersOf) has \(followers) followers; tokens for them and \(lines.count - 1) of them "
                            + "in \(tokensFile).\n"
                    )
                    return
                }
                if let following {
                    let tokens = try await Self.probeTokens(following: following, accounts: accounts, storage: storage)
                    try Self.write(tokens, to: tokensFile)
                    ProgressBar.write("\(tokens.count) tokens of people following \(following) in \(tokensFile).\n")
                    return
                }
                var random = SeededGenerator(seed: seed, stream: 11)
                var tokens: [String] = []
                var progress = ProgressBar(noun: "tokens", total: viewers)
                var attempts = 0
                let now = Date()
                while tokens.count < viewers && attempts < viewers * 10 {
                    attempts += 1
                    let number = Int.random(in: 0..<accounts, using: &random)
                    guard
                        let account = try await storage.accounts.find(
                            username: Seeder.username(number))
                    else { continue }
                    tokens.append(try await BenchAccounts.token(for: account.id, storage: storage, now: now))
                    progress.update(tokens.count)
                }
                progress.finish()
                guard !tokens.isEmpty else { throw ValidationError("No seeded accounts (athlete00000, …) found.") }
                try Self.write(tokens, to: tokensFile)
                if let postsFile, posts > 0 {
                    try Self.write(try await Self.publicPosts(posts, storage: storage), to: postsFile)
                }
                ProgressBar.write("\(tokens.count) tokens in \(tokensFile).\n")
            }
        }

        /// `TOKEN USER_ID` lines: the person's own first, then `count` of their followers' (in id order).
        private static func followerTokens(
            of username: String, count: Int, storage: any SpotterStorage
        ) async throws -> (lines: [String], followers: Int) {
            guard let person = try await storage.accounts.find(username: username) else {
                throw ValidationError("No account \(username).")
            }
            let followers = try await storage.graph.followerIDs(of: person.id).sorted {
                $0.description < $1.description
            }
            guard followers.count >= count else {
                throw ValidationError("\(username) has \(followers.count) followers; \(count) are needed.")
            }
            let now = Date()
            var lines = ["\(try await BenchAccounts.token(for: person.id, storage: storage, now: now)) \(person.id)"]
            var progress = ProgressBar(noun: "tokens", total: count)
            for follower in followers.prefix(count) {
                lines.append("\(try await BenchAccounts.token(for: follower, storage: storage, now: now)) \(follower)")
                progress.update(lines.count - 1)
            }
            progress.finish()
            return (lines, followers.count)
        }

        /// Tokens for the probe accounts that follow `level` people, each checked against its follow count.
        private static func probeTokens(
            following level: Int, accounts: Int, storage: any SpotterStorage
        ) async throws -> [String] {
            var tokens: [String] = []
            let now = Date()
            for number in SeedProbes.numbers(following: level, below: accounts) {
                guard
                    let account = try await storage.accounts.find(username: Seeder.username(number))
                else { continue }
                let counted = try await storage.graph.counts(of: account.id).following
                guard counted == level else {
                    throw ValidationError(
                        "\(Seeder.username(number)) follows \(counted), not \(level): "
                            + "seed with --community large.")
                }
                tokens.append(try await BenchAccounts.token(for: account.id, storage: storage, now: now))
            }
            guard !tokens.isEmpty else { throw ValidationError("No probe accounts: seed with --community large.") }
            return tokens
        }

        /// Recent posts anyone may see, from the Global feed as a signed-out visitor reads it.
        private static func publicPosts(_ count: Int, storage: any SpotterStorage) async throws -> [String] {
            let feeds = FeedService(storage: storage, clock: SystemClock())
            var ids: [String] = []
            var request = PageRequest(limit: PageRequest.maxLimit)
            while ids.count < count {
                let page = try await feeds.global(viewer: nil, page: request)
                ids += page.items.filter { $0.visibility == .public }.map(\.id.description)
                guard let cursor = page.nextCursor else { break }
                request = try PageRequest(limit: String(PageRequest.maxLimit), cursor: cursor, since: nil)
            }
            return Array(ids.prefix(count))
        }

        private static func write(_ lines: [String], to path: String) throws {
            let written = FileManager.default.createFile(
                atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
            guard written else { throw ValidationError("Could not write \(path).") }
        }
    }
}

extension Bench {
    /// `spotter bench sqlite-writes`: the raw SQLite ceiling the kudos benchmark compares with.
    struct SQLiteWrites: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sqlite-writes",
            abstract: "Measure SQLite's own single-row transaction rate, with Spotter's settings, on this machine.",
            discussion: """
                Creates a new database in --data-dir (which must not hold one), commits one kudos-shaped row per \
                transaction for --seconds on one thread, prints commits per second and deletes the file.
                """)

        @Option(help: "An empty directory for the database file.") var dataDir: String
        @Option(help: "How long to write.") var seconds = 10

        func run() async throws {
            try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
            let path = (dataDir as NSString).appendingPathComponent("ceiling.sqlite")
            guard !FileManager.default.fileExists(atPath: path) else {
                throw ValidationError("\(path) exists; give an empty directory.")
            }
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            let rate = try SQLiteWriteCeiling.measure(path: path, duration: .seconds(seconds))
            print(String(format: "%.0f", rate))
        }
    }
}
