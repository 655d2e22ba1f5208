import ArgumentParser
import Foundation
import SpotterCore
import SpotterModels
import SpotterServer

/// `spotter seed`: fills an empty database with a believable fitness community — accounts, a follow graph in
/// which a few accounts are popular, and a year of notes and workouts — so feeds can be tried and measured at
/// the size of a real community. The same `--seed` makes the same community.
struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fill an empty database with generated accounts, follows and posts (for benchmarks and demos).",
        discussion: "Seeded accounts (athlete00000, athlete00001, …) have no password: nobody can sign in as them.")

    @OptionGroup var options: ServerOptions
    @OptionGroup var seeding: SeedOptions
    @Flag(help: "Add the generated data even if the database already has accounts.") var force = false
    @Flag(
        help:
            "Make a small demo community instead (30 people, 8 weeks of lifts, runs, rides and swims, notes, kudos, comments, follows)."
    )
    var demo = false

    func run() async throws {
        let (plan, force, demo, seed) = (seeding.plan, force, demo, seeding.seed)
        let configuration = try options.configuration()
        let logger = options.logger(configuration)
        try await withSeedableStorage(options) { storage, bulk in
            let existing = try await bulk.size().accounts
            guard existing == 0 || force else {
                throw ValidationError("The database already has \(existing) accounts; pass --force to add to them.")
            }
            if demo {
                try await DemoSeeder(
                    storage: storage, bulk: bulk, seed: seed, configuration: configuration, logger: logger
                ).load()
            } else {
                try await Seeder(plan: plan, firstIndex: existing).load(into: bulk)
            }
        }
    }
}

/// How much to generate; shared by `seed` and `bench`.
struct SeedOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The community's shape: standard (10,000 people, 1,000,000 posts over a year) or large (100,000 "
                + "people, 10,000,000 posts over two years, a heavy-tailed follow graph).")
    )
    var community: SeedCommunity = .standard
    @Option(help: "Accounts to create (default: the community's).") var users: Int?
    @Option(help: "Posts to create (default: the community's).") var posts: Int?
    @Option(help: "Accounts each account follows, on average (default: the community's).") var followsPerUser: Int?
    @Option(help: "Random seed: the same seed makes the same community.") var seed: UInt64 = 42

    func validate() throws {
        guard users ?? 1 >= 1, posts ?? 0 >= 0, followsPerUser ?? 0 >= 0 else {
            throw ValidationError("--users must be at least 1; --posts and --follows-per-user at least 0.")
        }
    }

    var plan: SeedPlan {
        var plan = community.plan(seed: seed)
        if let users { plan.users = users }
        if let posts { plan.posts = posts }
        if let followsPerUser { plan.followsPerUser = followsPerUser }
        return plan
    }
}

/// The two communities `spotter seed` makes. The standard one is what the load benchmarks have always run on;
/// the large one is what issue-size questions need: does a Following page stay fast for someone who follows
/// 5,000 people, among 10,000,000 posts, when a few people have 50,000 followers?
enum SeedCommunity: String, ExpressibleByArgument, CaseIterable, Sendable {
    case standard, large

    func plan(seed: UInt64) -> SeedPlan {
        switch self {
        case .standard:
            SeedPlan(users: 10_000, posts: 1_000_000, followsPerUser: 50, seed: seed)
        case .large:
            SeedPlan(
                users: 100_000, posts: 10_000_000, followsPerUser: 40, seed: seed, days: 730, heavyTail: true)
        }
    }
}

/// The parsed `SeedOptions`, as a plain value that can cross into concurrent code.
struct SeedPlan: Sendable {
    var users: Int
    var posts: Int
    /// The average with a uniform graph; the median with a heavy tail.
    var followsPerUser: Int
    var seed: UInt64
    /// How far back the posts go.
    var days = 365
    /// Follows as a large community has them: how many people each person follows is log-normal (median
    /// `followsPerUser`, 115 of 100,000 follow a thousand or more), whom they follow is steeper than the
    /// standard graph's (of 100,000 people the most followed has about half, 51,295 with seed 42, the next
    /// 22,723), and probe accounts follow exactly 10, 100, 1,000 or 5,000 people for the scale benchmark
    /// (`SeedProbes`).
    var heavyTail = false
}

/// The large community's probe accounts: every account whose number ends in 999 follows exactly one of
/// `levels` people, in turn (athlete00999 follows 10, athlete01999 100, athlete02999 1,000, athlete03999
/// 5,000, athlete04999 10 again, …): 25 of each among 100,000 people. `spotter bench http-plan --following`
/// mints tokens for them.
enum SeedProbes {
    static let levels = [10, 100, 1_000, 5_000]

    /// How many people account `number` follows, if it is a probe.
    static func following(_ number: Int) -> Int? {
        number % 1000 == 999 ? levels[(number / 1000) % levels.count] : nil
    }

    /// The probe accounts among `accounts` that follow `level` people.
    static func numbers(following level: Int, below accounts: Int) -> [Int] {
        stride(from: 999, to: accounts, by: 1000).filter { following($0) == level }
    }
}

/// Opens the configured storage, migrates it and runs `body` while it can take queries. PostgreSQL's pool runs
/// only once, so it migrates inside the same `withRunning` as the work instead of through
/// `StorageFactory.migrate`, which runs and stops a pool of its own.
func withSeedableStorage(
    _ options: ServerOptions, _ body: @Sendable (any SpotterStorage, any BulkLoading) async throws -> Void
) async throws {
    let configuration = try options.configuration()
    let storage = try StorageFactory.open(configuration, logger: options.logger(configuration))
    guard let bulk = storage as? any BulkLoading else {
        throw ValidationError("\(type(of: storage)) cannot bulk-load, so it cannot be seeded.")
    }
    try await storage.withRunning {
        try await storage.migrate()
        try await body(storage, bulk)
    }
}

/// Generates the community and loads it batch by batch: accounts, then follows, then posts. Posts are made one
/// batch at a time so memory stays flat at any size, and the next batch is made while the database writes the
/// previous one.
struct Seeder: Sendable {
    let plan: SeedPlan
    /// Where numbering starts (`--force` adds after the accounts already there).
    let firstIndex: Int
    /// Times count back from the start of the current hour, so one seed gives one database within the hour.
    let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 3600).rounded(.down) * 3600)

    static let day: TimeInterval = 24 * 3600

    /// The username of seeded account `number`: athlete00000, athlete00001, …
    static func username(_ number: Int) -> String { "athlete" + String(format: "%05d", number) }

    func load(into bulk: any BulkLoading) async throws {
        let started = ContinuousClock.now
        var random = SeededGenerator(seed: plan.seed, stream: 1, offset: firstIndex)
        let accounts = (0..<plan.users).map { makeAccount($0, using: &random) }
        try await Self.load("accounts", total: accounts.count, batchSize: 5_000) { range in
            Array(accounts[range])
        } load: {
            try await bulk.loadAccounts($0)
        }

        let follows = makeFollows(accounts)
        try await Self.load("follows", total: follows.count, batchSize: 20_000) { range in
            Array(follows[range])
        } load: {
            try await bulk.loadFollows($0)
        }

        var posts = PostMaker(
            accounts: accounts, total: plan.posts, end: now, days: plan.days,
            random: SeededGenerator(seed: plan.seed, stream: 3, offset: firstIndex))
        try await Self.load("posts", total: plan.posts, batchSize: 5_000) { range in
            range.map { posts.post($0) }
        } load: {
            try await bulk.loadPosts($0)
        }

        let seconds = (ContinuousClock.now - started).seconds
        ProgressBar.write(
            "Seeded \(accounts.count) accounts, \(follows.count) follows and \(plan.posts) posts in "
                + "\(Int(seconds) / 60) min \(Int(seconds) % 60) s.\n")
    }

    /// Makes items `batchSize` at a time and loads each batch while making the next, drawing progress.
    private static func load<Item: Sendable>(
        _ noun: String, total: Int, batchSize: Int, make: (Range<Int>) -> [Item],
        load: @escaping @Sendable ([Item]) async throws -> Void
    ) async throws {
        var progress = ProgressBar(noun: noun, total: total)
        var pending: Task<Int, any Error>?
        for start in stride(from: 0, to: total, by: batchSize) {
            let batch = make(start..<min(start + batchSize, total))
            if let done = try await pending?.value { progress.update(done) }
            pending = Task {
                try await load(batch)
                return start + batch.count
            }
        }
        if let done = try await pending?.value { progress.update(done) }
        progress.finish()
    }

    private func makeAccount(_ number: Int, using random: inout SeededGenerator) -> AccountRecord {
        let username = Self.username(firstIndex + number)
        // Everyone joined within the month before the posts begin.
        let createdAt = now - Double(plan.days + 30) * Self.day + 30 * Self.day * Double(number) / Double(plan.users)
        let privacy: Privacy = random.chance(0.9) ? .public : random.chance(0.8) ? .followers : .private
        let profile = ProfileFields(
            bio: SeedText.bios.randomElement(using: &random)!, units: random.chance(0.7) ? .kg : .lb,
            timeZone: SeedText.timeZones.randomElement(using: &random)!, privacy: privacy)
        let name = [SeedText.firstNames, SeedText.lastNames].map { $0.randomElement(using: &random)! }
        return AccountRecord(
            id: UserID(rawValue: UUIDv7.make(at: createdAt, using: &random)), username: username,
            email: "\(username)@example.com", passwordHash: nil, displayName: name.joined(separator: " "),
            appleSubject: nil, createdAt: createdAt, profile: profile)
    }

    /// Each account follows about `followsPerUser` others, drawn so that low-numbered accounts are popular
    /// (athlete00000 is followed by about four in ten; in the heavy-tailed graph by about half). Follows are
    /// made over the span of the posts.
    private func makeFollows(_ accounts: [AccountRecord]) -> [(follower: UserID, followee: UserID, at: Date)] {
        var random = SeededGenerator(seed: plan.seed, stream: 2, offset: firstIndex)
        var follows: [(follower: UserID, followee: UserID, at: Date)] = []
        follows.reserveCapacity(accounts.count * plan.followsPerUser * (plan.heavyTail ? 2 : 1))
        let span = Double(plan.days) * Self.day
        for (index, follower) in accounts.enumerated() {
            let wanted = min(accounts.count - 1, followCount(of: firstIndex + index, using: &random))
            var chosen = Set<Int>(minimumCapacity: wanted)
            var draws = 0
            // Bounded: with few accounts the popular ones are soon all taken and further draws mostly repeat.
            while chosen.count < wanted, draws < wanted * 20 {
                draws += 1
                let other =
                    plan.heavyTail
                    ? random.popular(below: accounts.count, steepness: 2.8) : random.popular(below: accounts.count)
                if other != index { chosen.insert(other) }
            }
            for other in chosen.sorted() {
                let at = now - Double.random(in: 0..<span, using: &random)
                follows.append((follower.id, accounts[other].id, at))
            }
        }
        return follows
    }

    /// How many people account `number` follows: uniform around the average in the standard graph; in the
    /// heavy-tailed one log-normal around the median (σ = 1: one in 400 follows over 16 times the median),
    /// capped at 3,000, or a probe's exact level.
    private func followCount(of number: Int, using random: inout SeededGenerator) -> Int {
        guard plan.heavyTail else {
            return Int.random(in: plan.followsPerUser / 2...plan.followsPerUser * 3 / 2, using: &random)
        }
        if let probe = SeedProbes.following(number) { return probe }
        // Box–Muller: one standard normal draw from two uniform ones.
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let u2 = Double.random(in: 0..<1, using: &random)
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        return max(1, min(3_000, Int((Double(plan.followsPerUser) * exp(normal)).rounded())))
    }
}

/// SplitMix64: a small, fast generator whose output depends only on its seed, unlike the system's, so the same
/// seed makes the same community. One stream per kind of data, so asking for more posts leaves the accounts
/// and follows as they were.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64, stream: UInt64, offset: Int = 0) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 &+ stream &* 0xD1B5_4A32_D192_ED03 &+ UInt64(offset)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with the given probability.
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    /// An index below `count`, low indices far likelier (density ∝ 1/√index): who is popular, who posts a lot.
    mutating func popular(below count: Int) -> Int {
        let u = Double.random(in: 0..<1, using: &self)
        return min(count - 1, Int(u * u * Double(count)))
    }

    /// An index below `count` drawn as `count × uᵏ`: the steeper `k`, the more draws land on the first few
    /// (density ∝ index^(1/k − 1)). `popular(below:)` is k = 2.
    mutating func popular(below count: Int, steepness: Double) -> Int {
        let u = Double.random(in: 0..<1, using: &self)
        return min(count - 1, Int(pow(u, steepness) * Double(count)))
    }
}

/// Draws a phase's progress on stderr: `[#####-----] 42% 420000/1000000 posts, 35000/s`. On a terminal the bar
/// is redrawn in place at most ten times a second; when stderr is a file or a pipe only one plain line per
/// phase is written, so logs don't fill with carriage returns.
struct ProgressBar {
    let noun: String
    let total: Int
    private let started = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private static let isTerminal = isatty(STDERR_FILENO) != 0

    init(noun: String, total: Int) {
        self.noun = noun
        self.total = total
    }

    mutating func update(_ done: Int) {
        let now = ContinuousClock.now
        guard Self.isTerminal, lastDrawn.map({ now - $0 >= .milliseconds(100) }) ?? true else { return }
        lastDrawn = now
        Self.write("\r" + line(done) + "\u{1B}[K")
    }

    func finish() {
        let summary = line(total) + String(format: " in %.1f s", (ContinuousClock.now - started).seconds)
        Self.write(Self.isTerminal ? "\r\(summary)\u{1B}[K\n" : "\(summary)\n")
    }

    private func line(_ done: Int) -> String {
        let width = 30
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let seconds = (ContinuousClock.now - started).seconds
        let rate = seconds > 0 ? Int(Double(done) / seconds) : 0
        return "[\(bar)] \(Int(fraction * 100))% \(done)/\(total) \(noun), \(rate)/s"
    }

    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension Duration {
    /// The duration in seconds, for rates and milliseconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Makes the posts, oldest first and evenly spread over the `days` before `end`, so ids (UUIDv7 at each post's
/// creation time) arrive in index order. Authors are drawn so a few post daily and most weekly; fields are
/// filled as `PostService` would (hashtags, mentions, text hash, global-feed membership with duplicates of the
/// last 24 hours left out).
struct PostMaker {
    let accounts: [AccountRecord]
    let total: Int
    let end: Date
    let days: Int
    var random: SeededGenerator
    /// When each author last posted each text, for the last day or so: the duplicate rule.
    private var recentTexts: [String: Date] = [:]
    private static let fitnessTags = PostService.Configuration().fitnessTags

    init(accounts: [AccountRecord], total: Int, end: Date, days: Int = 365, random: SeededGenerator) {
        self.accounts = accounts
        self.total = total
        self.end = end
        self.days = days
        self.random = random
    }

    mutating func post(_ number: Int) -> PostRecord {
        let span = Double(days) * Seeder.day
        let offset = (Double(number) + Double.random(in: 0..<1, using: &random)) / Double(total)
        let createdAt = end - span + span * offset
        let busy = random.chance(0.5)
        let author = accounts[
            busy ? random.popular(below: accounts.count) : .random(in: accounts.indices, using: &random)]
        let visibility: Visibility = author.profile.privacy == .public && random.chance(0.85) ? .public : .followers
        var text: String
        var workout: WorkoutRecord?
        if random.chance(0.6) {
            let made = makeWorkout(before: createdAt)
            workout = made
            text = SeedText.workoutTexts.randomElement(using: &random)!
                .replacingOccurrences(of: "{title}", with: made.title)
        } else {
            text = SeedText.notes.randomElement(using: &random)!
                .replacingOccurrences(of: "{n}", with: String(Int.random(in: 3...200, using: &random)))
            if random.chance(0.1) {
                text += " Thanks @\(accounts[random.popular(below: accounts.count)].username) for the spot!"
            }
        }
        let hashtags = TextEntities.hashtags(in: [text, workout?.title ?? ""].joined(separator: "\n"))
        // `PostService`'s text hash: SHA-256 of the lowercased text with whitespace runs collapsed.
        let textHash = OpaqueToken.hash(text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " "))
        let key = author.id.description + textHash
        let duplicate =
            !text.isEmpty && (recentTexts[key].map { createdAt.timeIntervalSince($0) <= Seeder.day } ?? false)
        if !text.isEmpty { recentTexts[key] = createdAt }
        if recentTexts.count > 50_000 {
            recentTexts = recentTexts.filter { createdAt.timeIntervalSince($0.value) <= Seeder.day }
        }
        let fitness = workout != nil || !Self.fitnessTags.isDisjoint(with: hashtags)
        return PostRecord(
            id: PostID(rawValue: UUIDv7.make(at: createdAt, using: &random)), authorID: author.id,
            kind: workout == nil ? .note : .workout, text: text, visibility: visibility, workout: workout,
            records: [], hashtags: hashtags, mentions: TextEntities.mentions(in: text), textHash: textHash,
            inGlobal: fitness && !duplicate, performedAt: workout?.startTime ?? createdAt, createdAt: createdAt)
    }

    /// A small workout finished shortly before `posted`: a few lifts, a run or ride, or a circuit.
    private mutating func makeWorkout(before posted: Date) -> WorkoutRecord {
        let roll = Double.random(in: 0..<1, using: &random)
        let type: WorkoutType
        let title: String
        var exercises: [ExerciseEntry] = []
        var minutes: Double
        if roll < 0.65 {
            (type, title) = (.strength, SeedText.strengthTitles.randomElement(using: &random)!)
            for lift in SeedText.lifts.shuffled(using: &random).prefix(.random(in: 1...3, using: &random)) {
                let weight = (Double.random(in: 20...160, using: &random) / 2.5).rounded() * 2.5
                var sets = [WorkoutSet(weightKg: 20, reps: 10, setType: .warmup)]
                for _ in 0..<Int.random(in: 3...4, using: &random) {
                    sets.append(WorkoutSet(weightKg: weight, reps: .random(in: 3...10, using: &random)))
                }
                exercises.append(ExerciseEntry(name: lift, sets: sets))
            }
            minutes = Double.random(in: 40...90, using: &random)
        } else if roll < 0.9 {
            (type, title) = (.cardio, SeedText.cardioTitles.randomElement(using: &random)!)
            let meters = Double(Int.random(in: 3...25, using: &random) * 1000)
            minutes = meters / Double.random(in: 150...300, using: &random)
            let cardio = CardioMetrics(distanceM: meters, durationS: Int(minutes * 60))
            exercises = [ExerciseEntry(name: title.hasSuffix("ride") ? "Ride" : "Run", cardio: cardio)]
        } else {
            (type, title) = (.circuit, "Circuit")
            for name in SeedText.circuit {
                let set = WorkoutSet(weightKg: 16, reps: .random(in: 10...20, using: &random))
                exercises.append(ExerciseEntry(name: name, sets: [set]))
            }
            minutes = Double.random(in: 20...40, using: &random)
        }
        let end = posted - Double.random(in: 60...3600, using: &random)
        return WorkoutRecord(
            title: title, type: type, startTime: end - minutes * 60, endTime: end, exercises: exercises)
    }
}

/// What seeded data is made of: a small fitness vocabulary, hashtags from the global feed's fitness set.
enum SeedText {
    static let firstNames = [
        "Ana", "Ben", "Chloé", "Dev", "Emma", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kira", "Liam", "Maya",
        "Nils", "Olu", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
    ]
    static let lastNames = [
        "Alvarez", "Berg", "Chen", "Dubois", "Eze", "Fischer", "García", "Haddad", "Ito", "Jensen", "Kowalski",
        "Larsen", "Moreau", "Nakamura", "Okafor", "Patel",
    ]
    static let bios = [
        "", "Lifting heavy things since 2015.", "Marathoner in training.", "Coffee, kettlebells, repeat.",
        "Weekend warrior. #running", "Powerlifting coach.", "Getting back into it after a long break.",
    ]
    static let timeZones = [
        "UTC", "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "Asia/Tokyo",
        "Australia/Sydney",
    ]
    static let notes = [
        "Rest day. Foam rolling and a long walk. #mobility", "New deadlift PR today, {n} kg! #strength #pr",
        "Who's up for a 10k on Sunday? #running", "Meal prep done for the week.", "Morning yoga before work. #yoga",
        "Week {n} of the marathon block, legs are tired. #marathon #running",
        "Gym was packed tonight, still got it done. #gym", "Trying a new program this month, any tips? #training",
        "Stretching is not optional. Learned that the hard way.", "Rowed {n} minutes at an easy pace. #rowing",
        "Day {n} of showing up. #fitness",
    ]
    static let workoutTexts = [
        "{title} done. #workout", "{title} in the books #gym", "Felt strong today. #strength", "",
        "Slow and steady. #cardio", "{title} with the crew #training", "Legs are jelly. #legday",
    ]
    static let strengthTitles = ["Leg day", "Push day", "Pull day", "Full body", "Upper body", "Heavy singles"]
    static let cardioTitles = ["Easy run", "Tempo run", "Long run", "Intervals", "Commute ride", "Hill ride"]
    static let lifts = [
        "Back Squat", "Bench Press", "Deadlift", "Overhead Press", "Barbell Row", "Pull-up", "Romanian Deadlift",
        "Front Squat",
    ]
    static let circuit = ["Burpees", "Kettlebell Swing", "Box Jump", "Push-up"]
}
