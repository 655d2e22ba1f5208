import Foundation
import SpotterModels

/// The one rule for the events a post was imported from: the relay shows them exactly while the post is
/// public and not deleted. `PostService` applies it inside the unit of work that deletes a post or changes
/// its visibility, so the relay never serves a moment longer what Spotter stopped showing, and a rolled-back
/// change hides nothing.
///
/// It lives in the write path rather than behind a listener of domain events: those leave after the commit
/// and are not durable, so a crash between the two would leave a followers-only post's event public.
enum NostrPostEvents {
    static func shown(_ post: PostRecord) -> Bool { post.deletedAt == nil && post.visibility == .public }

    /// Hides or shows again the events `post` was imported from.
    static func sync(_ post: PostID, shown: Bool, storage: any SpotterStorage) async throws {
        for record in try await storage.nostr.imports(of: .post(post)) {
            try await storage.nostr.setHidden(record.eventID, !shown)
        }
    }
}
