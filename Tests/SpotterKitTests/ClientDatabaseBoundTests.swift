import Foundation
import SpotterKit
import SpotterModels
import Testing

/// The client database stays small however long the app is used (issue 40, "what it must show"): 60 simulated
/// days of 5,000 feed items a day, a few of one's own among them, and the daily clean-up.
///
/// The bound follows from `CachePolicy`: a feed holds at most 1,000 posts, posts no feed holds are kept a day,
/// one's own always. So at most 1,000 (the feed) + one day's loose posts (5,000 pushed out of the feed, and
/// those opened) + one's own are kept, whatever the number of days. The file must stay under 24 MB; the
/// measured figures are printed for the note.
@Suite("Client database bound")
struct ClientDatabaseBoundTests {
    static let password = "correct horse battery"
    static let days = 60
    static let itemsPerDay = 5_000
    static let batch = 1_000

    final class DayClock: @unchecked Sendable {
        private let lock = NSLock()
        private var current = Date()
        var now: @Sendable () -> Date { { self.lock.withLock { self.current } } }
        func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    @Test("60 days of 5,000 feed items a day keep the client database under 24 MB")
    func sixtyDays() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bound-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            // Given Ana's session on a file, signed in (so the clean-up knows whose posts to keep)
            let clock = DayClock()
            let network = SwitchableNetwork()
            let session = try SpotterSession(
                baseURL: url, folder: folder, tokens: MemoryTokenStore(), transport: network, retry: .none,
                now: clock.now)
            try await session.client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            _ = try await session.client.follow("bea")
            let template = try await bea.createPost(
                CreatePostRequest(kind: .note, text: String(repeating: "Tempo run along the river. ", count: 8)))
            let mine = try await session.client.createPost(CreatePostRequest(kind: .note, text: "My run"))
            _ = await session.maintain()  // the first clean-up, with nothing to take yet
            let feed = await FeedViewModel(kind: .following, session: session)
            await feed.loadInitial()
            network.state = .down  // the rest arrives as the socket would hand it over

            var largest = 0
            for day in 1...Self.days {
                // When a day's 5,000 posts arrive live, shown a thousand at a time, and she posts twice
                for start in stride(from: 0, to: Self.itemsPerDay, by: Self.batch) {
                    for offset in 0..<Self.batch {
                        var post = template
                        post.id = PostID(rawValue: UUIDv7.make(at: clock.now()))
                        post.text = "Day \(day) item \(start + offset): " + template.text
                        await feed.receiveLive(post)
                    }
                    await feed.showNewPosts()
                }
                for _ in 0..<2 {
                    var own = mine
                    own.id = PostID(rawValue: UUIDv7.make(at: clock.now()))
                    await feed.receiveLive(own)
                }
                await feed.showNewPosts()
                clock.advance(by: 24 * 3600)
                _ = await session.maintain()
                largest = max(largest, try Self.size(of: folder))
            }

            // Then the file stays under the bound, and what is kept is what the rules allow
            let kept = try await session.database.reader.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posts") ?? 0
            }
            let own = 1 + 2 * Self.days
            print("client database after \(Self.days) days: \(largest) bytes at most, \(kept) posts kept")
            #expect(kept <= 1_000 + Self.itemsPerDay + 2 + own)
            #expect(largest < 24 * 1024 * 1024)
            #expect(await feed.posts.count == 1_000)
        }
    }

    /// The database file with its write-ahead log.
    static func size(of folder: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("spotter.sqlite") }
            .reduce(0) { total, name in
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(name).path)
                return total + ((attributes[.size] as? Int) ?? 0)
            }
    }
}
