import Foundation
import GRDB
import Testing

/// `spotter seed --community large`, scaled down, run as a process: the shape the scale benchmark relies on.
extension TerminalClientTests {
    @Test("the large community has probe accounts at each level, a heavy tail, and tokens for the probes")
    func largeCommunityShape() async throws {
        // Given an empty data directory
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-large-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let spotter = Spotter(home: data.appendingPathComponent("home"))

        // When a large-shaped community of 8,000 people and 20,000 posts is seeded
        _ = try await spotter.run(
            "seed", "--community", "large", "--users", "8000", "--posts", "20000", "--data-dir", data.path)

        // Then each probe account (numbers ending in 999) follows exactly its level, in turn…
        let database = try DatabaseQueue(path: data.appendingPathComponent("spotter.sqlite").path)
        let (probes, mostFollowed, median, days) = try await database.read { db in
            (
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT u.username, c.following FROM users u JOIN user_counts c ON c.user_id = u.id
                        WHERE u.username LIKE '%999' ORDER BY u.username
                        """
                ).map { ($0[0] as String, $0[1] as Int) },
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT u.username, c.followers FROM users u JOIN user_counts c ON c.user_id = u.id
                        ORDER BY c.followers DESC LIMIT 1
                        """
                ).map { ($0[0] as String, $0[1] as Int) },
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT following FROM user_counts ORDER BY following
                        LIMIT 1 OFFSET (SELECT COUNT(*) / 2 FROM user_counts)
                        """) ?? 0,
                try Double.fetchOne(db, sql: "SELECT (MAX(created_at) - MIN(created_at)) / 86400 FROM posts") ?? 0
            )
        }
        #expect(probes.map(\.0) == (0..<8).map { "athlete0\($0)999" })
        #expect(probes.map(\.1) == [10, 100, 1_000, 5_000, 10, 100, 1_000, 5_000])
        // …the most followed person is the first, followed by most of everyone (the steep draw)…
        #expect(mostFollowed?.0 == "athlete00000")
        #expect((4_000...8_000).contains(mostFollowed?.1 ?? 0))
        // …most people follow a few dozen (log-normal around 40), and the posts span two years.
        #expect((30...50).contains(median))
        #expect(days > 700 && days <= 730)

        // And the scale benchmark gets tokens for the probes of a level, and refuses a level the seed has not
        let tokens = data.appendingPathComponent("tokens").path
        _ = try await spotter.run(
            "bench", "http-plan", "--data-dir", data.path, "--following", "1000", "--tokens-file", tokens)
        #expect(try String(contentsOfFile: tokens, encoding: .utf8).split(separator: "\n").count == 2)
        await #expect(throws: (any Error).self) {
            _ = try await spotter.run(
                "bench", "http-plan", "--data-dir", data.path, "--following", "50", "--tokens-file", tokens)
        }
    }
}
