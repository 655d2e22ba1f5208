import Foundation
import Logging
import SpotterModels

/// Photos from upload to sweep: the upload flow of the Nova seed (presign, the client sends the bytes straight
/// to the blob store, complete), a small direct path for the web app, processing on the durable queue, alt text
/// and focal point, and the sweep that removes what nobody uses.
///
/// An upload is its owner's alone until a post or a profile takes it: anyone else asking about it gets 404.
public struct MediaService: Sendable {
    public struct Configuration: Sendable {
        public var limits: ImageLimits
        /// How long a presigned upload stays usable.
        public var uploadLifetime: Duration
        /// How long an upload may wait for a post or profile before the sweep removes it.
        public var unattachedLifetime: TimeInterval
        /// Processing attempts before an upload is given up as failed (the store kept failing).
        public var maxAttempts: Int

        public init(
            limits: ImageLimits = ImageLimits(), uploadLifetime: Duration = .seconds(15 * 60),
            unattachedLifetime: TimeInterval = 24 * 3600, maxAttempts: Int = 5
        ) {
            self.limits = limits
            self.uploadLifetime = uploadLifetime
            self.unattachedLifetime = unattachedLifetime
            self.maxAttempts = maxAttempts
        }
    }

    let storage: any SpotterStorage
    let blobs: any BlobStore
    let processor: any ImageProcessor
    public let links: MediaLinks
    let clock: any WallClock
    public let configuration: Configuration
    /// Tells the processing runner there is work now, so a photo need not wait for its next poll.
    let wake: @Sendable () -> Void
    let logger: Logger

    public init(
        storage: any SpotterStorage, blobs: any BlobStore, processor: any ImageProcessor, links: MediaLinks,
        clock: any WallClock, configuration: Configuration = Configuration(), logger: Logger,
        wake: @escaping @Sendable () -> Void = {}
    ) {
        self.storage = storage
        self.blobs = blobs
        self.processor = processor
        self.links = links
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
        self.wake = wake
    }

    // MARK: Upload

    /// Step one: a place to upload to, signed for the declared type and valid for `uploadLifetime`.
    public func createUpload(_ request: CreateMediaRequest, owner: AccountRecord) async throws -> MediaUpload {
        var problems = MediaRules.problems(
            contentType: request.contentType, byteSize: request.byteSize, limits: configuration.limits)
        let description = MediaRules.details(description: request.description, focus: request.focus, into: &problems)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let now = clock.now
        try await checkUnattachedLimit(owner.id, now: now)
        let contentType = request.contentType.lowercased()
        let record = MediaRecord(
            id: MediaID.generate(at: now), ownerID: owner.id, purpose: request.purpose, status: .pending,
            contentType: contentType, byteSize: request.byteSize, description: description, focus: request.focus,
            createdAt: now)
        let upload = try blobs.presignedUpload(
            to: record.originalKey, contentType: contentType, lifetime: configuration.uploadLifetime, now: now)
        try await storage.media.insert(record)
        return MediaUpload(
            id: record.id, uploadURL: upload.url.absoluteString, uploadMethod: upload.method,
            uploadHeaders: upload.headers, expiresAt: upload.expiresAt)
    }

    /// Step three, after the bytes are in the store: checks what really arrived (a presigned PUT cannot bound
    /// it) and queues it for processing. Asking again changes nothing and answers the upload's state.
    public func complete(_ id: MediaID, owner: AccountRecord) async throws -> Media {
        let record = try await own(id, owner: owner)
        guard record.status == .pending else { return try await links.view(record, now: clock.now) }
        guard let info = try await blobs.info(record.originalKey) else {
            throw SpotterError.conflict(
                field: "upload", detail: "Nothing has been uploaded yet: send the bytes to upload_url first.")
        }
        let now = clock.now
        var refusal: FieldError?
        if info.size > configuration.limits.maxBytes {
            refusal = FieldError(
                field: "byte_size", detail: MediaRules.sizeLimitDetail(info.size, configuration.limits))
        } else if let stored = info.contentType?.lowercased(), stored != record.contentType {
            refusal = FieldError(field: "content_type", detail: "was \(stored), not the \(record.contentType) declared")
        }
        if let refusal {
            try await blobs.delete(record.originalKey)
            let reason =
                refusal.field == "byte_size"
                ? "The photo \(refusal.detail)." : "The upload \(refusal.field) \(refusal.detail)."
            // The upload stays failed, with its reason, although the request fails.
            try await storage.keepingWrites {
                try await storage.media.markFailed(id, reason: reason, at: now)
                throw SpotterError.validation([refusal])
            }
        }
        _ = try await storage.media.startProcessing(id, at: now)
        wake()
        return try await links.view(try await own(id, owner: owner), now: now)
    }

    /// `upload`, committed on its own before it returns, even inside a request's unit of work: for a caller
    /// that then waits for the photo's processing (the web's forms without script), which sees only committed
    /// uploads. The request must not have written before it (on SQLite the two units would wait for each
    /// other's writer).
    public func uploadCommitted(
        _ data: Data, contentType: String, purpose: MediaPurpose, description: String?, focus: FocalPoint?,
        owner: AccountRecord
    ) async throws -> Media {
        try await Task.detached { [self] in
            try await storage.write {
                try await upload(
                    data, contentType: contentType, purpose: purpose, description: description, focus: focus,
                    owner: owner)
            }
        }.value
    }

    /// The small-upload path (the web app's form, a terminal upload): the bytes come in the request, and go to
    /// the store and the processing queue in one step.
    public func upload(
        _ data: Data, contentType: String, purpose: MediaPurpose, description: String?, focus: FocalPoint?,
        owner: AccountRecord
    ) async throws -> Media {
        // A form part without a type of its own (or a generic one) is taken for what its bytes are; a
        // declared type is checked again from the bytes when the photo is processed.
        var declared = contentType.lowercased()
        if declared.isEmpty || declared == "application/octet-stream",
            let sniffed = try? ImageSniffer.format(of: data)
        {
            declared = sniffed.contentType
        }
        var problems = MediaRules.problems(contentType: declared, byteSize: data.count, limits: configuration.limits)
            .map { problem in
                FieldError(field: "file", detail: problem.detail)
            }
        let kept = MediaRules.details(description: description, focus: focus, into: &problems)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let now = clock.now
        try await checkUnattachedLimit(owner.id, now: now)
        let record = MediaRecord(
            id: MediaID.generate(at: now), ownerID: owner.id, purpose: purpose, status: .processing,
            contentType: declared, byteSize: data.count, description: kept, focus: focus, createdAt: now)
        try await blobs.put(data, at: record.originalKey, contentType: declared)
        try await storage.media.insert(record)
        wake()
        return try await links.view(record, now: now)
    }

    /// An upload as its owner sees it.
    public func get(_ id: MediaID, owner: AccountRecord) async throws -> Media {
        try await links.view(try await own(id, owner: owner), now: clock.now)
    }

    /// Alt text and focal point, until the photo's post is made.
    public func update(_ id: MediaID, with request: UpdateMediaRequest, owner: AccountRecord) async throws -> Media {
        var record = try await own(id, owner: owner)
        guard record.postID == nil else {
            throw SpotterError.conflict(
                field: "description",
                detail: "The photo's post is made; its alt text and focal point are kept as posted.")
        }
        var problems: [FieldError] = []
        let description = MediaRules.details(description: request.description, focus: request.focus, into: &problems)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        if request.description != nil { record.description = description }
        if let focus = request.focus { record.focus = focus }
        try await storage.media.updateDetails(id, description: record.description, focus: record.focus)
        return try await links.view(record, now: clock.now)
    }

    /// Throws an upload away before a post takes it; the sweep removes its bytes.
    public func delete(_ id: MediaID, owner: AccountRecord) async throws {
        let record = try await own(id, owner: owner)
        guard record.postID == nil else {
            throw SpotterError.conflict(field: "id", detail: "The photo is in a post: edit or delete the post instead.")
        }
        try await storage.media.discard([id], at: clock.now)
    }

    // MARK: Attaching

    /// The photos `ids` as `post` (a new post when `nil`) by `author` will carry them, in order, or the
    /// problems that keep them out, each naming its place in `media_ids`.
    public func attachments(_ ids: [MediaID], author: UserID, post: PostID?) async throws -> [MediaAttachment] {
        var problems: [FieldError] = []
        if ids.count > MediaRules.maxPerPost {
            problems.append(FieldError(field: "media_ids", detail: "may list at most \(MediaRules.maxPerPost) photos"))
        }
        if Set(ids).count != ids.count {
            problems.append(FieldError(field: "media_ids", detail: "lists a photo more than once"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let records = Dictionary(
            try await storage.media.find(ids: ids).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, id) in ids.enumerated() {
            if let problem = MediaRules.attachProblem(records[id], author: author, post: post) {
                problems.append(FieldError(field: "media_ids[\(index)]", detail: problem))
            }
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return ids.compactMap { records[$0].map(MediaRules.attachment) }
    }

    // MARK: Processing

    /// Processes the uploads that are due, a few at a time; returns how many it took. Every node may run it:
    /// the lease keeps two from taking one photo.
    @discardableResult
    public func processDue(limit: Int = 2) async -> Int {
        let now = clock.now
        let jobs: [MediaRecord]
        do {
            jobs = try await storage.media.claimDue(now: now, leaseUntil: now.addingTimeInterval(120), limit: limit)
        } catch {
            logger.warning("media jobs could not be claimed", metadata: ["error": "\(error)"])
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for job in jobs { group.addTask { await process(job) } }
        }
        return jobs.count
    }

    func process(_ job: MediaRecord) async {
        do {
            guard let original = try await blobs.get(job.originalKey) else {
                try await storage.media.markFailed(job.id, reason: "The upload is gone.", at: clock.now)
                return
            }
            let image: ProcessedImage
            do {
                image = try await processor.process(original.data, limits: configuration.limits)
            } catch let refusal as ImageRefusal {
                try await blobs.delete(job.originalKey)
                try await storage.media.markFailed(job.id, reason: refusal.reason, at: clock.now)
                logger.info("photo refused", metadata: ["media": "\(job.id)", "reason": "\(refusal.reason)"])
                return
            }
            try await blobs.put(image.large, at: job.key(.large), contentType: ProcessedImage.contentType)
            try await blobs.put(image.small, at: job.key(.small), contentType: ProcessedImage.contentType)
            try await storage.media.markReady(
                job.id, width: image.width, height: image.height, blurhash: image.blurhash, at: clock.now)
            // The original may carry where its athlete lives (EXIF GPS): nothing keeps it once the renditions,
            // which carry no metadata, exist.
            try await blobs.delete(job.originalKey)
        } catch {
            let attempts = job.attempts + 1
            logger.warning(
                "photo processing failed",
                metadata: ["media": "\(job.id)", "attempt": "\(attempts)", "error": "\(error)"])
            if attempts >= configuration.maxAttempts {
                try? await storage.media.markFailed(job.id, reason: "The photo could not be processed.", at: clock.now)
            } else {
                try? await storage.media.retry(
                    job.id, at: clock.now.addingTimeInterval(Double(attempts * attempts) * 5))
            }
        }
    }

    // MARK: Sweep

    /// Removes the blobs and rows of uploads nobody took within a day, and of discarded photos (deleted posts,
    /// photos edited out, replaced avatars); returns how many.
    @discardableResult
    public func sweep(limit: Int = 200) async throws -> Int {
        let stale = clock.now.addingTimeInterval(-configuration.unattachedLifetime)
        let records = try await storage.media.sweepable(staleBefore: stale, limit: limit)
        var removed: [MediaID] = []
        for record in records {
            do {
                for key in [record.originalKey, record.key(.large), record.key(.small)] {
                    try await blobs.delete(key)
                }
                removed.append(record.id)
            } catch {
                logger.warning(
                    "a photo's blobs could not be removed", metadata: ["media": "\(record.id)", "error": "\(error)"])
            }
        }
        try await storage.media.delete(removed)
        return removed.count
    }

    // MARK: Serving

    /// The bytes of a rendition for a fetch of its URL, or `nil` (a 404) when the fetch may not have them: the
    /// URL is signed and unexpired, or the photo is one anyone may see (a post everyone may see, an avatar);
    /// in either case its post still stands and its owner is not suspended.
    public func rendition(
        _ id: MediaID, _ rendition: MediaRendition, expires: Int?, signature: String?
    ) async throws -> ServedMedia? {
        guard let record = try await storage.media.find(id), record.status == .ready, record.discardedAt == nil,
            let owner = try await storage.accounts.find(id: record.ownerID), owner.suspendedAt == nil
        else { return nil }
        let now = clock.now
        var signed = false
        if let expires, let signature {
            guard try await links.verify(id, rendition, expires: expires, signature: signature, now: now) else {
                return nil
            }
            signed = true
        }
        // Whether a signed-out visitor may see it: then a shared cache (a CDN) may keep it, and no signature
        // is needed. The one rule (`VisibilityPolicy`), as it stands for someone who follows nobody.
        let everyone: Bool
        if let postID = record.postID {
            guard let post = try await storage.posts.record(postID), post.deletedAt == nil else { return nil }
            everyone = VisibilityPolicy.canSee(
                .init(
                    isAuthor: false, postDeleted: false, authorSuspended: false, blockedEitherWay: false,
                    followsAuthor: false, authorPrivacy: owner.profile.privacy, visibility: post.visibility))
        } else if let subject = record.avatarOf, record.attachedAt != nil {
            switch subject {
            case .person: everyone = PersonPolicy.allows(.avatar, .signedOut(owner))
            case .group(let id):
                // A private group's avatar would tell a stranger what the group looks like; while the group is
                // private, only the signed URLs given to its members open it.
                guard let group = try await storage.groups.find(id) else { return nil }
                everyone = group.access != .private
            case .child(let id):
                // A child has no public presence: only the signed URLs given to its guardians open it.
                guard try await storage.children.find(id) != nil else { return nil }
                everyone = false
            }
        } else {
            everyone = false  // an upload no post or profile took yet: its owner's signed preview only
        }
        guard signed || everyone else { return nil }
        guard let blob = try await blobs.get(record.key(rendition)) else { return nil }
        let maxAge = signed ? max(0, (expires ?? 0) - Int(now.timeIntervalSince1970)) : 3600
        return ServedMedia(data: blob.data, contentType: blob.contentType, isPublic: everyone, maxAge: maxAge)
    }

    // MARK: Helpers

    private func own(_ id: MediaID, owner: AccountRecord) async throws -> MediaRecord {
        guard let record = try await storage.media.find(id), record.ownerID == owner.id, record.discardedAt == nil
        else { throw SpotterError.notFound("No such upload.") }
        return record
    }

    private func checkUnattachedLimit(_ owner: UserID, now: Date) async throws {
        let waiting = try await storage.media.countUnattached(of: owner, since: now.addingTimeInterval(-86_400))
        if waiting >= MediaRules.maxUnattachedPerDay {
            throw SpotterError.rateLimited(
                retryAfter: 3600,
                detail: "You have \(waiting) uploads not yet in a post; post or delete some before uploading more.")
        }
    }
}

/// A rendition's bytes and how it may be cached.
public struct ServedMedia: Sendable {
    public var data: Data
    public var contentType: String
    /// Whether a shared cache (a CDN) may keep it: a public post's photo, a person's avatar, an avatar of a group
    /// that is not private.
    public var isPublic: Bool
    public var maxAge: Int
}
