import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// The bulk loader writes what the stores would have written: rows it loads read back through the normal
/// stores exactly, so seeded benchmarks measure the same data real use produces.
@Suite("Bulk loading contract")
struct BulkLoadingContractTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func account(_ name: String, privacy: Privacy = .public) -> AccountRecord {
        AccountRecord(
            id: .generate(at: start), username: name, email: "\(name.capitalized)@Example.com", passwordHash: nil,
            displayName: name.capitalized, appleSubject: nil, createdAt: start,
            profile: ProfileFields(bio: "bio of \(name)", units: .lb, timeZone: "Europe/Berlin", privacy: privacy))
    }

    static func post(
        by author: AccountRecord, minutes: Double, text: String, visibility: Visibility = .public,
        tags: [String] = [], workout: WorkoutRecord? = nil
    ) -> PostRecord {
        let date = start.addingTimeInterval(minutes * 60)
        return PostRecord(
            id: .generate(at: date), authorID: author.id, kind: workout == nil ? .note : .workout, text: text,
            visibility: visibility, workout: workout, records: [], hashtags: tags, mentions: [], textHash: text,
            inGlobal: true, performedAt: workout?.startTime ?? date, createdAt: date)
    }

    @Test("bulk-loaded accounts, follows and posts read back through the stores", arguments: StorageBackend.available)
    func roundTrip(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let bulk = try #require(storage as? any BulkLoading, "\(backend) storage does not conform to BulkLoading")
            // Given three accounts, where ana and cai follow ben and ana follows cai…
            let (ana, ben, cai) = (Self.account("ana"), Self.account("ben"), Self.account("cai", privacy: .followers))
            try await bulk.loadAccounts([ana, ben, cai])
            try await bulk.loadFollows([
                (ana.id, ben.id, Self.start), (cai.id, ben.id, Self.start), (ana.id, cai.id, Self.start),
            ])
            // …and posts by ben and cai, some tagged, one a workout, one for followers only.
            let squat = ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 100, reps: 5)])
            let workout = WorkoutRecord(
                title: "Leg day", type: .strength, startTime: Self.start, endTime: Self.start.addingTimeInterval(3600),
                exercises: [squat])
            let posts = [
                Self.post(
                    by: ben, minutes: 61, text: "Leg day done #legday #gym", tags: ["legday", "gym"], workout: workout),
                Self.post(by: ben, minutes: 70, text: "Rest day"),
                Self.post(by: cai, minutes: 80, text: "Squats #legday", visibility: .followers, tags: ["legday"]),
                Self.post(by: ben, minutes: 90, text: "Tempo run #running", tags: ["running"]),
            ]
            // When
            try await bulk.loadPosts(posts)
            try await bulk.analyze()
            // Then the accounts, counts and posts are what the stores would have stored.
            #expect(try await storage.accounts.find(login: "ana@example.com") == ana)
            #expect(try await storage.accounts.find(username: "CAI") == cai)
            #expect(try await storage.graph.counts(of: ben.id) == (followers: 2, following: 0))
            #expect(try await storage.graph.counts(of: ana.id) == (followers: 0, following: 2))
            #expect(try await storage.graph.relationship(of: ana.id, with: cai.id).following == .following)
            for post in posts { #expect(try await storage.posts.record(post.id) == post) }
            #expect(try await bulk.size() == (accounts: 3, posts: 4))
            // …and the feeds find them by their indexes, newest first, only where the viewer may see them.
            let following = try await storage.posts.feed(FeedQuery(source: .following, limit: 10), viewer: ana.id)
            #expect(following.map(\.id) == posts.reversed().map(\.id))
            #expect(following.last?.workout == workout)
            let tagged = try await storage.posts.feed(FeedQuery(source: .tag("legday"), limit: 10), viewer: ana.id)
            #expect(tagged.map(\.id) == [posts[2].id, posts[0].id])
            let anonymous = try await storage.posts.feed(FeedQuery(source: .tag("legday"), limit: 10), viewer: nil)
            #expect(anonymous.map(\.id) == [posts[0].id])
            let mine = try await storage.posts.feed(FeedQuery(source: .following, limit: 10), viewer: ben.id)
            #expect(mine.map(\.id) == [posts[3].id, posts[1].id, posts[0].id])
        }
    }
}
