import Foundation
import Logging
import SpotterModels

/// Encrypted photos of an encrypted group: the bytes go straight to the blob store by a presigned upload, as
/// photos do, but the server cannot process them (a device makes the thumbnail), and every fetch goes through
/// here so a removed member is refused at once.
public struct E2EBlobService: Sendable {
    let storage: any SpotterStorage
    let blobs: any BlobStore
    let clock: any WallClock
    let logger: Logger
    /// The largest encrypted blob: a 24 MB photo and its encryption's overhead.
    public static let maxBytes = 25 << 20
    /// How long a presigned upload lasts, and how long an upload waits for a post before the sweep takes it.
    static let uploadLifetime: Duration = .seconds(900)
    static let unattachedLifetime: TimeInterval = 86_400

    public init(storage: any SpotterStorage, blobs: any BlobStore, clock: any WallClock, logger: Logger) {
        self.storage = storage
        self.blobs = blobs
        self.clock = clock
        self.logger = logger
    }

    /// Where to send an encrypted blob's bytes.
    public func create(
        in group: GroupID, _ request: CreateSealedBlobRequest, by account: AccountRecord
    ) async throws -> SealedBlobUpload {
        _ = try await E2EAccess.group(group, viewer: account, storage: storage)
        // The smallest sealed blob is a header and one empty chunk's tag.
        guard (32...Self.maxBytes).contains(request.byteSize) else {
            throw SpotterError.invalid("byte_size", "must be between 32 and \(Self.maxBytes) bytes")
        }
        let now = clock.now
        let record = SealedBlobRecord(
            id: UUID(), groupID: group, ownerID: account.id, byteSize: request.byteSize, createdAt: now)
        let upload = try blobs.presignedUpload(
            to: record.key, contentType: "application/octet-stream", lifetime: Self.uploadLifetime, now: now)
        try await storage.e2e.insertBlob(record)
        return SealedBlobUpload(
            id: record.id, uploadURL: upload.url.absoluteString, uploadHeaders: upload.headers,
            expiresAt: upload.expiresAt)
    }

    /// The bytes are in the store: their size is checked against what was declared (a presigned PUT cannot
    /// bound it), and the blob may then go in a post.
    public func complete(_ id: UUID, in group: GroupID, by account: AccountRecord) async throws {
        _ = try await E2EAccess.group(group, viewer: account, storage: storage)
        guard let record = try await storage.e2e.blob(id), record.groupID == group, record.ownerID == account.id,
            record.discardedAt == nil
        else { throw SpotterError.notFound("No such upload.") }
        guard !record.ready else { return }
        guard let info = try await blobs.info(record.key) else {
            throw SpotterError.conflict(field: "upload", detail: "Nothing has been uploaded yet: send the bytes first.")
        }
        guard info.size == record.byteSize else {
            try await blobs.delete(record.key)
            throw SpotterError.invalid("byte_size", "was \(info.size) bytes, not the \(record.byteSize) declared")
        }
        try await storage.e2e.markBlobReady(id)
    }

    /// An encrypted blob's bytes, for a member, while its post stands.
    public func bytes(_ id: UUID, in group: GroupID, viewer: AccountRecord) async throws -> Blob {
        _ = try await E2EAccess.group(group, viewer: viewer, storage: storage)
        guard let record = try await storage.e2e.blob(id), record.groupID == group, record.ready,
            record.discardedAt == nil, record.postID != nil || record.ownerID == viewer.id,
            let blob = try await blobs.get(record.key)
        else { throw SpotterError.notFound("No such photo.") }
        return blob
    }

    /// Removes the bytes and rows of encrypted blobs no post took within a day, and of discarded ones (deleted
    /// posts and groups); returns how many.
    @discardableResult
    public func sweep(limit: Int = 200) async throws -> Int {
        let stale = clock.now.addingTimeInterval(-Self.unattachedLifetime)
        var removed: [UUID] = []
        for record in try await storage.e2e.sweepableBlobs(staleBefore: stale, limit: limit) {
            do {
                try await blobs.delete(record.key)
                removed.append(record.id)
            } catch {
                logger.warning("an encrypted blob could not be removed", metadata: ["blob": "\(record.id)"])
            }
        }
        try await storage.e2e.deleteBlobs(removed)
        return removed.count
    }
}
