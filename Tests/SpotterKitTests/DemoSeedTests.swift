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
        let (people, avatars, photos, postsWithPhotos, withAvatarURL, groupAvatars) = try await database.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0,
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM media WHERE avatar_of LIKE 'person:%' AND status = 'ready'") ?? 0,
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT count(*) FROM media WHERE purpose = 'post' AND status = 'ready' AND post_id IS NOT NULL"
                ) ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM posts WHERE media != '[]'") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM users WHERE avatar_url LIKE '%/media/%'") ?? 0,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM groups g JOIN media m ON m.avatar_of = 'group:' || g.id
                        WHERE g.avatar_url LIKE '/media/%' AND m.status = 'ready'
                        """) ?? 0
            )
        }
        // And each of the three groups has a photo of its own
        #expect(groupAvatars == 3)
        #expect(people == 30)
        #expect(avatars == people)
        #expect(photos > 10)
        #expect(postsWithPhotos == photos)
        #expect(withAvatarURL == people)
        let stored =
            FileManager.default.enumerator(atPath: data.appendingPathComponent("media").path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix("/large.jpg") } ?? []
        #expect(stored.count >= avatars + photos + groupAvatars)
    }

    @Test("the demo community has an open running club, a strength team with a request waiting, and a family circle")
    func demoGroups() async throws {
        // Given an empty data directory
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-demo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let spotter = Spotter(home: data.appendingPathComponent("home"))

        // When the demo is seeded into it
        let said = try await spotter.run("seed", "--demo", "--data-dir", data.path)

        // Then it has its three groups, each with members and posts, and one request waiting
        #expect(said.contains("3 groups"))
        let database = try DatabaseQueue(path: data.appendingPathComponent("spotter.sqlite").path)
        let groups = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT g.name, g.access, g.member_count,
                        (SELECT count(*) FROM posts p WHERE p.group_id = g.id) AS posts,
                        (SELECT count(*) FROM group_members m WHERE m.group_id = g.id AND m.standing = 'requested')
                            AS waiting
                    FROM groups g ORDER BY g.name
                    """
            ).map { row -> String in
                "\(row["name"] as String) \(row["access"] as String) \(row["member_count"] as Int) members "
                    + "\(row["posts"] as Int) posts \(row["waiting"] as Int) waiting"
            }
        }
        #expect(
            groups == [
                "Iron Hour Strength Team request 7 members 4 posts 1 waiting",
                "Riverside Runners open 8 members 8 posts 0 waiting",
                "The Keller Family private 3 members 5 posts 0 waiting",
            ])
        // And the Kellers' two children, managed by both parents, each named by one post in the family circle only
        let children = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.name,
                        (SELECT count(*) FROM child_guardians cg WHERE cg.child_id = c.id AND cg.accepted) AS guardians,
                        (SELECT group_concat(g.access) FROM post_children pc JOIN posts p ON p.id = pc.post_id
                         JOIN groups g ON g.id = p.group_id WHERE pc.child_id = c.id) AS places
                    FROM children c ORDER BY c.name
                    """
            ).map { "\($0["name"] as String) \($0["guardians"] as Int) \($0["places"] as String)" }
        }
        #expect(children == ["Mila 2 private", "Theo 2 private"])
    }
}
