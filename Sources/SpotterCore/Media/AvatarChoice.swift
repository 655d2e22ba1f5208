import Foundation
import SpotterModels

/// Choosing an upload as an avatar (a person's, a group's, a child's) and showing it: the one rule the
/// account, group and child services share.
struct AvatarChoice {
    let storage: any SpotterStorage
    /// `nil` when uploads are not enabled on this server.
    let links: MediaLinks?

    /// The path `id` is stored as once it is `subject`'s avatar, or a 422 naming `avatar_media_id`: it must be an
    /// avatar upload of `uploader`'s, ready, and no other subject's avatar.
    ///
    /// A path, not a whole URL: a stored address would go stale when the site moves (a new domain, a proxy in
    /// front). Browsers and `SpotterClient.url(_:)` resolve it against the server they asked.
    func path(of id: MediaID, for subject: AvatarSubject, uploader: UserID) async throws -> String {
        guard links != nil else {
            throw SpotterError.invalid("avatar_media_id", "uploads are not enabled on this server")
        }
        if let problem = MediaRules.avatarProblem(try await storage.media.find(id), owner: uploader, for: subject) {
            throw SpotterError.invalid("avatar_media_id", problem)
        }
        return MediaLinks.path(id, .small)
    }

    /// The URL to send for a stored avatar path: the path itself when anyone may fetch it, or a signed URL
    /// for someone who may see it when only signed fetches open it (a private group's, a child's).
    func url(_ stored: String?, signed: Bool, now: Date) async throws -> String? {
        guard let stored, signed else { return stored }
        guard let links, let id = MediaLinks.mediaID(inPath: stored) else { return nil }
        return try await links.signedURL(id, .small, now: now)
    }
}
