import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// A post's comment count is kept by triggers and corrected for the viewer at read time (issue 8): on both
/// databases it must always equal the length of the list the same viewer is shown.
@Suite("Comment count storage contract")
struct CommentCountContractTests {
    static let start = SocialContractTests.start

    /// Comments and replies made straight in the store, where the service's checks (a live parent, on this
    /// post) would not let a test make a reply under a tombstone.
    struct Commenter {
        let storage: any SpotterStorage
        let post: PostRecord
        var offset = 0.0

        mutating func comment(_ author: AccountRecord, parent: CommentRecord? = nil) async throws -> CommentRecord {
            offset += 1
            let record = CommentRecord(
                id: .generate(at: start + offset), postID: post.id, parentID: parent?.id, authorID: author.id,
                text: "comment \(Int(offset))", createdAt: start + offset)
            try await storage.posts.insertComment(record)
            return record
        }

        func tombstone(_ comment: CommentRecord) async throws {
            try await storage.posts.tombstoneComment(comment.id, at: start + 100)
        }
    }

    /// The count on every read that shows one (a post, a page of its author's feed), and the list's length,
    /// for one viewer.
    static func counts(_ storage: any SpotterStorage, _ post: PostRecord, viewer: UserID?) async throws -> [Int] {
        let single = try #require(try await storage.posts.post(post.id, viewer: viewer))
        let page = try await storage.posts.feed(FeedQuery(source: .author(post.authorID), limit: 10), viewer: viewer)
        let listed = try await storage.posts.comments(on: post.id, viewer: viewer, after: nil, limit: 100)
        return [single.commentsCount] + page.filter { $0.id == post.id }.map(\.commentsCount) + [listed.count]
    }

    @Test(
        "a post's comment count follows comments, replies and tombstones, suspensions and blocks, as its list does",
        arguments: StorageBackend.available)
    func commentCountIsKept(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            let ana = try await SocialContractTests.user(storage, "ana")
            let bea = try await SocialContractTests.user(storage, "bea")
            let cai = try await SocialContractTests.user(storage, "cai")
            let troll = try await SocialContractTests.user(storage, "troll")
            let vic = try await SocialContractTests.user(storage, "vic")
            let post = try await SocialContractTests.post(storage, by: ana)
            let other = try await SocialContractTests.post(storage, by: ana, "another", at: Self.start + 1)
            let quiet = try await SocialContractTests.post(storage, by: ana, "no comments", at: Self.start + 2)
            func counts(_ viewer: AccountRecord?) async throws -> [Int] {
                try await Self.counts(storage, post, viewer: viewer?.id)
            }

            var on = Commenter(storage: storage, post: post)
            let first = try await on.comment(bea)
            let firstReply = try await on.comment(cai, parent: first)
            let trollReply = try await on.comment(troll, parent: first)
            let trollComment = try await on.comment(troll)
            _ = try await on.comment(bea, parent: trollComment)
            _ = try await on.comment(cai, parent: trollComment)
            _ = try await on.comment(cai)
            var onOther = Commenter(storage: storage, post: other)
            _ = try await onOther.comment(bea)
            #expect(try await counts(vic) == [7, 7, 7])
            #expect(try await counts(nil) == [7, 7, 7])

            // A tombstoned reply goes; a tombstoned comment takes its live replies with it, once.
            try await on.tombstone(firstReply)
            #expect(try await counts(vic) == [6, 6, 6])
            try await on.tombstone(first)
            #expect(try await counts(vic) == [4, 4, 4])
            try await on.tombstone(trollReply)
            #expect(try await counts(vic) == [4, 4, 4])
            // A reply under a tombstone is never shown, so never counted.
            _ = try await on.comment(bea, parent: first)
            #expect(try await counts(vic) == [4, 4, 4])

            // Vic blocks the troll: its comment and the replies of others under it leave Vic's count alone.
            try await storage.graph.block(vic.id, troll.id, at: Self.start)
            #expect(try await counts(vic) == [1, 1, 1])
            #expect(try await counts(ana) == [4, 4, 4])
            #expect(try await counts(nil) == [4, 4, 4])
            // A block the other way hides the same, and both ways hide it once.
            try await storage.graph.block(troll.id, bea.id, at: Self.start)
            #expect(try await counts(bea) == [1, 1, 1])
            try await storage.graph.block(bea.id, troll.id, at: Self.start)
            #expect(try await counts(bea) == [1, 1, 1])

            // Cai suspended: Cai's comment and reply go for everyone; for Vic, Cai's reply under the troll's
            // comment was already hidden and is not taken away twice.
            try await storage.accounts.setSuspended(cai.id, at: Self.start)
            #expect(try await counts(nil) == [2, 2, 2])
            #expect(try await counts(vic) == [0, 0, 0])
            try await storage.accounts.setSuspended(cai.id, at: nil)
            try await storage.graph.unblock(vic.id, troll.id)
            #expect(try await counts(vic) == [4, 4, 4])

            // Other posts keep their own counts.
            #expect(try await Self.counts(storage, other, viewer: vic.id) == [1, 1, 1])
            #expect(try await Self.counts(storage, quiet, viewer: vic.id) == [0, 0, 0])
        }
    }

    @Test(
        "comments made before counts were kept are counted once the database is migrated",
        arguments: StorageBackend.available)
    func commentCountIsBackfilled(backend: StorageBackend) async throws {
        try await backend.withStorage(migratedBefore: "2026-11-24 comments counted") { storage in
            let ana = try await SocialContractTests.user(storage, "ana")
            let bea = try await SocialContractTests.user(storage, "bea")
            let post = try await SocialContractTests.post(storage, by: ana)
            let quiet = try await SocialContractTests.post(storage, by: ana, "no comments", at: Self.start + 1)
            // The post already has a row of kept counts, for its kudos.
            #expect(try await storage.posts.addKudos(post.id, by: bea.id, at: Self.start))
            var on = Commenter(storage: storage, post: post)
            let first = try await on.comment(bea)
            _ = try await on.comment(ana, parent: first)
            let gone = try await on.comment(bea)
            _ = try await on.comment(ana, parent: gone)
            try await on.tombstone(gone)
            try await storage.migrate()
            #expect(try await Self.counts(storage, post, viewer: nil) == [2, 2, 2])
            #expect(try await Self.counts(storage, quiet, viewer: nil) == [0, 0, 0])
            #expect(try await storage.posts.post(post.id, viewer: nil)?.kudosCount == 1)
            // From there the kept count goes on.
            _ = try await on.comment(ana)
            try await on.tombstone(first)
            #expect(try await Self.counts(storage, post, viewer: nil) == [1, 1, 1])
        }
    }
}
