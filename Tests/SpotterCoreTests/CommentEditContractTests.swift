import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// `PostStore.editComment` on every adapter: the text and `edited_at` change, read back alone and in the list,
/// and a tombstoned comment stays as it was.
@Suite("Comment edit storage contract")
struct CommentEditContractTests {
    static let start = SocialContractTests.start

    @Test(
        "an edit replaces the text and sets edited_at; a deleted comment is left alone",
        arguments: StorageBackend.available)
    func edit(backend: StorageBackend) async throws {
        try await backend.withStorage { storage in
            // Given a post with two comments, one of them deleted
            let ana = try await SocialContractTests.user(storage, "ana")
            let post = try await SocialContractTests.post(storage, by: ana)
            var on = CommentCountContractTests.Commenter(storage: storage, post: post)
            let kept = try await on.comment(ana)
            let gone = try await on.comment(ana)
            try await on.tombstone(gone)
            #expect(try await storage.posts.comment(kept.id)?.editedAt == nil)

            // When both are edited
            let at = Self.start + 500
            try await storage.posts.editComment(kept.id, text: "fixed", at: at)
            try await storage.posts.editComment(gone.id, text: "revived?", at: at)

            // Then the live one reads back changed, alone and listed; the deleted one did not change
            let record = try #require(try await storage.posts.comment(kept.id))
            #expect(record.text == "fixed")
            #expect(abs((record.editedAt ?? .distantPast).timeIntervalSince(at)) < 0.001)
            let listed = try await storage.posts.comments(on: post.id, viewer: ana.id, after: nil, limit: 10)
            #expect(listed.map(\.text) == ["fixed"])
            #expect(abs((listed.first?.editedAt ?? .distantPast).timeIntervalSince(at)) < 0.001)
            let deleted = try #require(try await storage.posts.comment(gone.id))
            #expect(deleted.text == gone.text && deleted.editedAt == nil)
        }
    }
}
