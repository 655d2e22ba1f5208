import Foundation
import SpotterModels

/// Photos of encrypted groups kept opened on this device (MyTube's downloader), so a feed scrolled again or
/// opened offline shows them without downloading and decrypting again. With a database only; each photo's
/// state (`MediaDownload`: pending, downloading, ready, failed with why, when last downloaded) is there for a
/// screen to show in its place. At most `mediaCacheLimit` bytes are kept, the least recently shown going first.
///
/// ```swift
/// await groups.prefetch(body.media, in: family.id)                   // thumbnails, in the background
/// let jpeg = try await groups.cachedPhoto(body.media[0], in: family.id)
/// ```
extension EncryptedGroups {
    /// A post's photo (`thumbnail: true` for its thumbnail), from the kept ones if it is there; else downloaded,
    /// opened and kept. A failure is kept as the photo's state, with why, and thrown.
    public func cachedPhoto(
        _ media: SealedPostBody.Media, thumbnail: Bool = false, in groupID: GroupID
    ) async throws -> Data {
        let (blob, key) =
            thumbnail && media.thumbnailBlobID != nil && media.thumbnailKey != nil
            ? (media.thumbnailBlobID!, media.thumbnailKey!) : (media.blobID, media.key)
        guard let database else { return try await photo(blobID: blob, key: key, in: groupID) }
        if let kept = try await database.mediaBytes(blob, at: now()) { return kept }
        try await database.setMediaState(blob, group: groupID, .downloading, at: now())
        do {
            let bytes = try await photo(blobID: blob, key: key, in: groupID)
            try await database.storeMedia(blob, group: groupID, bytes, at: now(), limit: mediaCacheLimit)
            return bytes
        } catch {
            try? await database.setMediaState(blob, group: groupID, .failed(Self.reason(error)), at: now())
            throw error
        }
    }

    /// Asks for photos ahead of showing them (their thumbnails, unless `thumbnails` is false): each is pending
    /// at once, then downloaded in turn. Failures stay as their photos' states.
    public func prefetch(_ media: [SealedPostBody.Media], thumbnails: Bool = true, in groupID: GroupID) async {
        guard let database else { return }
        let blobs = media.map { thumbnails ? ($0.thumbnailBlobID ?? $0.blobID) : $0.blobID }
        for blob in blobs { try? await database.setMediaState(blob, group: groupID, .pending, at: now()) }
        for item in media { _ = try? await cachedPhoto(item, thumbnail: thumbnails, in: groupID) }
    }

    /// Where a photo's download stands; nil if it was never asked for (or was let go).
    public func mediaDownload(_ blobID: UUID) async -> MediaDownload? {
        try? await database?.mediaDownload(blobID)
    }

    /// Why a photo did not come, in words for the person.
    static func reason(_ error: any Error) -> String {
        if let error = error as? SpotterClientError, let problem = error.problem { return problem.explanation }
        return "\(error)"  // SpotterClientError and EncryptedGroupsError say it in words
    }
}
