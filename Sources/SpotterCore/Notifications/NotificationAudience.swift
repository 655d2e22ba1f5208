import Foundation
import SpotterModels

/// Who may hear of what: nobody hears from someone they blocked, were blocked by or muted, or who is
/// suspended (`PersonPolicy`'s `notifications`, said in SQL by `GraphStore.mayReach`), nor about a post they
/// may not see. Checked when a notification is made and again when it is
/// delivered, since a block or a deletion may come in between.
enum NotificationAudience {
    /// `postAuthor` is who wrote `post` when the caller has just read it, live; `nil` reads it here.
    static func mayHear(
        _ recipient: UserID, from actor: UserID?, about post: PostID?, postAuthor: UserID? = nil,
        storage: any SpotterStorage
    ) async throws -> Bool {
        if let actor {
            guard actor != recipient, try await storage.graph.mayReach(recipient, from: actor) else { return false }
        }
        return try await mayHear(recipient, about: post, postAuthor: postAuthor, storage: storage)
    }

    /// The post half of `mayHear`, for a caller that checked the actor already (the notifier reads that with
    /// the recipient's `DeliveryRules`).
    static func mayHear(
        _ recipient: UserID, about post: PostID?, postAuthor: UserID?, storage: any SpotterStorage
    ) async throws -> Bool {
        if let post {
            // Most notifications are about the recipient's own post (kudos, comments): one row says enough, where
            // the full view would also count kudos and comments.
            if postAuthor == recipient { return true }
            if let record = try await storage.posts.record(post), record.authorID == recipient {
                return record.deletedAt == nil
            }
            return try await storage.posts.post(post, viewer: recipient) != nil
        }
        return true
    }
}
