import ArgumentParser
import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SpotterCore
import SpotterModels

extension Bench {
    /// `spotter bench notification-users`: recipients with posts and givers with tokens, for `bench notifications`.
    struct NotificationUsers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notification-users",
            abstract:
                "Create recipients with posts, and givers, with access tokens, for `spotter bench notifications`.",
            discussion: """
                Writes a plan (JSON, readable by its owner only) to --plan-file: the givers' tokens, and each \
                recipient's token, id and posts. Every event of the benchmark gives kudos to a post of its own, so \
                each notification is a group of its own whose arrival the client can match to its request. Use a \
                database made for the benchmark.
                """)

        @OptionGroup var options: ServerOptions
        @Option(help: "Accounts that receive notifications (one live socket each).") var recipients = 100
        @Option(help: "Posts per recipient: recipients × posts is the most events one plan can drive.")
        var postsPerRecipient = 700
        @Option(help: "Accounts that give kudos.") var givers = 200
        @Option(help: "Where to write the plan.") var planFile: String

        func run() async throws {
            let (recipients, posts, givers, planFile) = (recipients, postsPerRecipient, givers, planFile)
            try await withSeedableStorage(options) { storage, bulk in
                let people = try await BenchAccounts.make(
                    recipients + givers, prefix: "notified", storage: storage, bulk: bulk)
                let now = Date()
                var plan = NotificationPlan(givers: Array(people.tokens[recipients...]), recipients: [])
                var records: [PostRecord] = []
                for (account, token) in zip(people.accounts.prefix(recipients), people.tokens) {
                    var ids: [String] = []
                    for number in 0..<posts {
                        let text = "Bench session \(number)"
                        let posted = now - Double(posts - number) * 60
                        let id = PostID(rawValue: UUIDv7.make(at: posted))
                        records.append(
                            PostRecord(
                                id: id, authorID: account.id, kind: .note, text: text, visibility: .public,
                                workout: nil, records: [], hashtags: [], mentions: [],
                                textHash: OpaqueToken.hash(text.lowercased()), inGlobal: false, performedAt: posted,
                                createdAt: posted))
                        ids.append(id.description)
                    }
                    plan.recipients.append(.init(id: account.id.description, token: token, posts: ids))
                    if records.count >= 5000 {
                        try await bulk.loadPosts(records)
                        records.removeAll(keepingCapacity: true)
                    }
                }
                try await bulk.loadPosts(records)
                try await bulk.analyze()
                let written = FileManager.default.createFile(
                    atPath: planFile, contents: try JSONEncoder().encode(plan),
                    attributes: [.posixPermissions: 0o600])
                guard written else { throw ValidationError("Could not write \(planFile).") }
                ProgressBar.write(
                    "\(recipients) recipients with \(posts) posts each and \(givers) givers in \(planFile).\n")
            }
        }
    }

    /// `spotter bench notifications`: kudos at a steady rate, each timed from its request to the `notification`
    /// event on the recipient's `user:<id>` socket; prints one markdown row.
    struct Notifications: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure notification event → in-app delivery latency at a steady event rate.",
            discussion: """
                Connects one socket per recipient of --plan-file and joins its user:<id> topic, then gives \
                kudos at --rate per second for --duration seconds (POST /api/v1/posts/{id}/kudos, each to a \
                post of its own, up to 64 connections). Each event is timed from the moment its request \
                started to the arrival of the notification that names its post. Run it on another core than \
                the server (taskset).
                """)

        @Option(help: "The server's base URL.") var url = "http://127.0.0.1:8080"
        @Option(help: "The plan from `spotter bench notification-users`.") var planFile: String
        @Option(help: "Events per second.") var rate = 1000.0
        @Option(help: "Seconds of load.") var duration = 60.0
        @Option(help: "Seconds to wait for the last deliveries.") var drain = 10.0
        @Option(help: "Goal for the p99, in milliseconds (printed beside the figure).") var goal = 100.0
        @Flag(help: "Print the table header first.") var header = false

        func validate() throws {
            guard rate > 0, duration > 0 else { throw ValidationError("--rate and --duration must be above 0.") }
        }

        func run() async throws {
            var logger = Logger(label: "spotter-bench")
            logger.logLevel = .error
            let plan = try JSONDecoder().decode(NotificationPlan.self, from: Data(contentsOf: URL(filePath: planFile)))
            let events = Int(rate * duration)
            let capacity = plan.recipients.reduce(0) { $0 + $1.posts.count }
            guard events <= capacity else {
                throw ValidationError("The plan has posts for \(capacity) events; \(events) are asked for.")
            }
            let run = NotificationRun(base: url, plan: plan, events: events, logger: logger)
            let connected = try await run.connectAll()
            guard connected == plan.recipients.count else {
                throw ValidationError("Only \(connected) of \(plan.recipients.count) recipients joined.")
            }
            let started = ContinuousClock.now
            let accepted = try await run.publish(rate: rate)
            let elapsed = (ContinuousClock.now - started).seconds
            let figures = try await run.collect(expected: accepted, drain: .seconds(drain))
            await run.closeAll()
            if header {
                print(
                    "| events/s asked | events/s done | events | accepted | in-app delivered | p50 ms | p99 ms | max ms | p99 goal |"
                )
                print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
            }
            print(
                "| \(String(format: "%g", rate)) | \(String(format: "%.0f", Double(accepted) / elapsed)) | \(events) | "
                    + "\(accepted) | \(figures.delivered) (\(String(format: "%.2f", figures.deliveredShare * 100))%) | "
                    + String(format: "%.1f | %.1f | %.1f | ", figures.p50, figures.p99, figures.max)
                    + "≤ \(String(format: "%g", goal)) ms \(figures.p99 <= goal ? "✓" : "✗") |")
        }
    }
}

/// Who the notification benchmark acts as: written by `notification-users`, read by `notifications`.
struct NotificationPlan: Codable {
    struct Recipient: Codable {
        var id: String
        var token: String
        var posts: [String]
    }

    var givers: [String]
    var recipients: [Recipient]
}

/// Accounts made straight in the database with day-long access tokens, so a benchmark needs no bcrypt
/// sign-ins. They are a month old, so no new-account limit applies to them.
enum BenchAccounts {
    static func make(
        _ count: Int, prefix: String, storage: any SpotterStorage, bulk: any BulkLoading
    ) async throws -> (accounts: [AccountRecord], tokens: [String]) {
        let now = Date()
        let joined = now - 30 * 24 * 3600
        let first = try await bulk.size().accounts
        let accounts = (0..<count).map { number in
            let username = prefix + String(format: "%05d", first + number)
            return AccountRecord(
                id: UserID(rawValue: UUIDv7.make(at: joined)), username: username,
                email: "\(username)@example.com", passwordHash: nil, displayName: "\(prefix.capitalized) \(number)",
                appleSubject: nil, createdAt: joined)
        }
        for batch in stride(from: 0, to: accounts.count, by: 1000) {
            try await bulk.loadAccounts(Array(accounts[batch..<min(batch + 1000, accounts.count)]))
        }
        var tokens: [String] = []
        for account in accounts { tokens.append(try await token(for: account.id, storage: storage, now: now)) }
        return (accounts, tokens)
    }

    /// A day-long access token, stored hashed like every other.
    static func token(for user: UserID, storage: any SpotterStorage, now: Date = Date()) async throws -> String {
        let token = OpaqueToken.generate(.access)
        try await storage.tokens.insert(
            TokenRecord(
                hash: OpaqueToken.hash(token), userID: user, family: UUID(), kind: .access,
                createdAt: now, expiresAt: now + 24 * 3600))
        return token
    }
}
