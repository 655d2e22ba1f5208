import ArgumentParser
import Foundation
import SpotterCore
import SpotterModels
import SpotterPostgres

/// `spotter bench …`: measurements of this installation, for capacity planning and for catching a query that
/// lost its index.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure Spotter against the configured database.",
        subcommands: [
            Feeds.self, HTTPPlan.self, SQLiteWrites.self, Fanout.self, RealtimeUsers.self, NotificationUsers.self,
            Notifications.self, HTTPFloor.self, PhotoProcessing.self, Relay.self, E2E.self,
        ])
}

extension Bench {
    /// `spotter bench feeds`: feed page latency as the API serves it (through `FeedService`, with visibility,
    /// counts and kudos previews), seeding an empty database first. Requests run one at a time, so the figures
    /// are latencies rather than throughput under contention.
    struct Feeds: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure Following, Global, profile and group feed page latency (p50/p99).",
            discussion: """
                Seeds the database first when it has no accounts (see `spotter seed`), adds the Bench Club \
                (an open group of the first --club-members seeded accounts with --club-posts posts) when it \
                is not there, refreshes planner statistics, then times pages for random seeded accounts and \
                prints a markdown table. The club's feed is timed newest first and in its top order.
                """)

        @OptionGroup var options: ServerOptions
        @OptionGroup var seeding: SeedOptions
        @Option(help: "Timed requests per feed (after 100 untimed warm-up requests).") var requests = 2000
        @Option(help: "Posts per page.") var limit = 20
        @Flag(help: "Never seed; measure what the database holds.") var skipSeed = false
        @Option(help: "Members of the Bench Club (the first seeded accounts).") var clubMembers = 10_000
        @Option(help: "Posts in the Bench Club, over the last 60 days.") var clubPosts = 100_000

        func validate() throws {
            guard requests >= 1 else { throw ValidationError("--requests must be at least 1.") }
            guard (1...PageRequest.maxLimit).contains(limit) else {
                throw ValidationError("--limit must be 1 to \(PageRequest.maxLimit).")
            }
        }

        func run() async throws {
            let (plan, requests, limit, skipSeed) = (seeding.plan, requests, limit, skipSeed)
            let (clubMembers, clubPosts) = (clubMembers, clubPosts)
            try await withSeedableStorage(options) { storage, bulk in
                var size = try await bulk.size()
                if size.accounts == 0 {
                    guard !skipSeed else { throw ValidationError("The database is empty: nothing to measure.") }
                    try await Seeder(plan: plan, firstIndex: 0).load(into: bulk)
                    size = try await bulk.size()
                }
                var clubRandom = SeededGenerator(seed: plan.seed, stream: 11)
                let club = try await BenchClub.prepare(
                    storage: storage, bulk: bulk, accounts: size.accounts, members: clubMembers, posts: clubPosts,
                    random: &clubRandom)
                size = try await bulk.size()
                let analyzing = ContinuousClock.now
                try await bulk.analyze()
                ProgressBar.write(String(format: "ANALYZE took %.1f s.\n", (ContinuousClock.now - analyzing).seconds))
                var random = SeededGenerator(seed: plan.seed, stream: 9)
                let bench = try await FeedBench(
                    storage: storage, accounts: min(size.accounts, clubMembers), requests: requests, limit: limit,
                    club: club, random: &random)
                let database = storage is PostgresStorage ? "PostgreSQL" : "SQLite"
                print("| database | feed | users | posts | requests | p50 ms | p99 ms | max ms | pages/s |")
                print("|---|---|--:|--:|--:|--:|--:|--:|--:|")
                for feed in FeedBench.Feed.allCases {
                    let figures = try await bench.measure(feed)
                    print(
                        "| \(database) | \(feed.rawValue) | \(size.accounts) | \(size.posts) | \(requests) | "
                            + String(
                                format: "%.2f | %.2f | %.2f | %.0f |", figures.p50, figures.p99, figures.max,
                                figures.pagesPerSecond))
                    ProgressBar.write(
                        "\(feed.rawValue): \(figures.pages) pages timed, \(figures.itemsPerPage) posts per page.\n")
                }
            }
        }
    }
}

/// Times feed pages through `FeedService`, one request at a time, for viewers drawn from the seeded accounts.
struct FeedBench {
    enum Feed: String, CaseIterable {
        case following = "Following"
        case global = "Global"
        case profile = "Profile"
        case group = "Group (newest)"
        case groupTop = "Group (top)"
    }

    struct Figures {
        var pages: Int
        var itemsPerPage: Int
        /// Milliseconds.
        var p50: Double
        var p99: Double
        var max: Double
        var pagesPerSecond: Double
    }

    /// Untimed requests first, so caches and connections are warm when timing starts.
    static let warmUp = 100

    let feeds: FeedService
    let limit: Int
    /// One viewer, and one profile for them to look at, per request.
    let viewers: [AccountRecord]
    let profiles: [String]
    /// The Bench Club, whose members every viewer is.
    let club: GroupID

    /// Draws a viewer and a profile for each request among the seeded accounts (`athlete00000`…), looking them
    /// up before any timing.
    init(
        storage: any SpotterStorage, accounts: Int, requests: Int, limit: Int, club: GroupID,
        random: inout SeededGenerator
    ) async throws {
        self.club = club
        let needed = Self.warmUp + requests
        var found: [AccountRecord] = []
        var cache: [Int: AccountRecord] = [:]
        for _ in 0..<needed * 2 {
            let number = Int.random(in: 0..<accounts, using: &random)
            if cache[number] == nil {
                cache[number] = try await storage.accounts.find(username: Seeder.username(number))
            }
            if let account = cache[number] { found.append(account) }
        }
        guard !found.isEmpty else { throw ValidationError("No seeded accounts (athlete00000, …) to view feeds as.") }
        while found.count < needed * 2 { found += found }
        feeds = FeedService(storage: storage, clock: SystemClock())
        self.limit = limit
        viewers = Array(found[0..<needed])
        profiles = found[needed..<needed * 2].map(\.username)
    }

    /// Requests first pages, and on every fourth request the second page too (through the cursor the first
    /// gave), timing each page with `ContinuousClock`.
    func measure(_ feed: Feed) async throws -> Figures {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var items = 0
        var timingStarted = clock.now
        for index in viewers.indices {
            if index == Self.warmUp {
                samples.removeAll()
                items = 0
                timingStarted = clock.now
            }
            var cursor: String?
            for pageNumber in 1...(index % 4 == 3 ? 2 : 1) {
                let start = clock.now
                let page = try await fetch(feed, index, cursor: cursor)
                samples.append(clock.now - start)
                items += page.items.count
                guard pageNumber == 1, let next = page.nextCursor else { break }
                cursor = next
            }
        }
        let wall = (clock.now - timingStarted).seconds
        let sorted = samples.map { $0.seconds * 1000 }.sorted()
        return Figures(
            pages: sorted.count, itemsPerPage: items / max(1, sorted.count), p50: Self.percentile(0.50, of: sorted),
            p99: Self.percentile(0.99, of: sorted), max: sorted.last ?? 0, pagesPerSecond: Double(sorted.count) / wall)
    }

    /// A page as a client asks for it (`?limit=…&cursor=…`), its cursor parsed as the API parses it.
    private func fetch(_ feed: Feed, _ index: Int, cursor: String?) async throws -> Page<Post> {
        if feed == .groupTop {
            return try await feeds.groupTop(club, viewer: viewers[index], limit: String(limit), cursor: cursor)
        }
        let request = try PageRequest(limit: String(limit), cursor: cursor, since: nil)
        switch feed {
        case .following: return try await feeds.following(viewer: viewers[index], page: request)
        case .global: return try await feeds.global(viewer: viewers[index], page: request)
        case .profile: return try await feeds.author(profiles[index], viewer: viewers[index], page: request)
        case .group, .groupTop: return try await feeds.group(club, viewer: viewers[index], page: request)
        }
    }

    /// The nearest-rank percentile of sorted values.
    static func percentile(_ fraction: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, Swift.max(1, rank)) - 1]
    }
}
