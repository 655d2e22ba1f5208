import Foundation
import GRDB
import Testing

/// `spotter seed --demo`, run as a process into a fresh data directory.
extension TerminalClientTests {
    @Test("the demo community has an avatar for everyone and photos on some workouts, processed and stored")
    func demoPhotos() async throws {
        // Given an empty data directory
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-demo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let spotter = Spotter(home: data.appendingPathComponent("home"))

        // When the demo is seeded into it
        _ = try await spotter.run("seed", "--demo", "--data-dir", data.path)

        // Then every person's avatar and some workouts' photos are ready uploads, attached, with their renditions
        let database = try DatabaseQueue(path: data.appendingPathComponent("spotter.sqlite").path)
        let (people, avatars, photos, postsWithPhotos, withAvatarURL) = try await database.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0,
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM media WHERE purpose = 'avatar' AND status = 'ready'") ?? 0,
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT count(*) FROM media WHERE purpose = 'post' AND status = 'ready' AND post_id IS NOT NULL"
                ) ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM posts WHERE media != '[]'") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM users WHERE avatar_url LIKE '%/media/%'") ?? 0
            )
        }
        #expect(people == 30)
        #expect(avatars == people)
        #expect(photos > 10)
        #expect(postsWithPhotos == photos)
        #expect(withAvatarURL == people)
        let stored =
            FileManager.default.enumerator(atPath: data.appendingPathComponent("media").path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix("/large.jpg") } ?? []
        #expect(stored.count >= avatars + photos)
    }
}
