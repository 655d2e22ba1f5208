import Foundation
import SpotterCore
import SpotterModels

/// The avatar a web form sends, for a person, a group or a child: an `avatar_media_id` the page's script
/// uploaded already, or a `photo` file from a form without script, uploaded and processed here (a bounded
/// wait). Whose avatar it becomes, and whether the person may set it, is the service's to decide.
struct WebAvatarUpload {
    let media: MediaService

    func mediaID(_ context: AppRequestContext, owner: AccountRecord) async throws -> MediaID {
        if let malformed = context.web.malformedMultipart {
            throw SpotterError.malformed(detail: malformed, field: nil)
        }
        if let text = context.web.form["avatar_media_id"] {
            guard let id = MediaID(text) else { throw SpotterError.invalid("photo", "is not one of your uploads") }
            return id
        }
        guard let file = context.web.files.first(where: { $0.name == "photo" && !$0.data.isEmpty }) else {
            throw SpotterError.invalid("photo", "is required: choose a photo")
        }
        let uploaded = try await media.uploadCommitted(
            file.data, contentType: file.contentType ?? "application/octet-stream", purpose: .avatar,
            description: nil, focus: nil, owner: owner)
        let settled = try await media.settled(uploaded.id, owner: owner, within: ComposePhotos.processingWait)
        switch settled.status {
        case .ready: return settled.id
        case .failed: throw SpotterError.invalid("photo", settled.reason ?? "could not be read")
        case .pending, .processing:
            throw SpotterError.invalid("photo", "is still being processed; save again in a moment")
        }
    }
}
