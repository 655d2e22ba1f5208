import Foundation
import SpotterModels

/// Posts with photos, delivered durably: each job keeps its photos' bytes, their alt text, the post and one
/// idempotency key for it in the client's `AppDatabase`, and goes presign → send → complete → wait until
/// processed, photo by photo, then creates the post with their `media_ids`. Each step's result is committed
/// before the next step starts, so a job survives the app being killed and the network going away at any
/// step, and resumes where it stopped: a link that expired is presigned again, a completed upload is never
/// sent again, and the post is created once (its idempotency key).
///
/// Like `ActionQueue` (whose database and retry policy it shares), a job that does not get through for want of
/// a network or a working server is never given up: it waits (`RetryPolicy.outbox`), and `pending` tells why.
/// A photo the server refuses (not an image it reads, too large) ends its job with the server's reason for the
/// person (`failed`).
///
/// ```swift
/// let uploads = UploadQueue(database: session.database, client: client)
/// let job = try await uploads.enqueue(
///     CreatePostRequest(kind: .note, text: "Long run done"),
///     photos: [PhotoToUpload(data: jpeg, contentType: "image/jpeg", description: "The finish line")])
/// Task { for await progress in await uploads.progress() { bar.value = progress.fraction } }
/// for outcome in await uploads.drain() {
///     if case .failed(_, let reason) = outcome { show(reason) }
/// }
/// ```
public actor UploadQueue {
    public let client: SpotterClient
    public let retry: RetryPolicy
    public nonisolated let database: AppDatabase
    /// Where `upload_success` goes, with how long the post took from queued to posted (the session's tracker).
    public nonisolated let analytics: AnalyticsTracker?
    /// How long one drain waits for a photo to be processed before leaving it for the next drain.
    public let processingLimit: Duration
    let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let preparer: (any PhotoPreparing)?
    private var draining = false
    private var listeners: [UUID: AsyncStream<UploadProgress>.Continuation] = [:]

    /// - Parameters:
    ///   - retry: when a job that did not get through is tried again.
    ///   - processingLimit: how long one drain waits for the server to process a photo.
    ///   - now: the clock retry times and link expiries are judged by; tests pass one they move.
    ///   - random: the jitter source, in 0...1.
    ///   - photos: how photos are made ready before they are queued (`PhotoPreparing`; ImageIO's on Apple
    ///     platforms); nil sends them as given.
    public init(
        database: AppDatabase, client: SpotterClient, retry: RetryPolicy = .outbox,
        processingLimit: Duration = .seconds(60), now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }, analytics: AnalyticsTracker? = nil,
        photos: (any PhotoPreparing)? = PhotoPreparation.platformDefault
    ) {
        self.preparer = photos
        self.database = database
        self.analytics = analytics
        self.client = client
        self.retry = retry
        self.processingLimit = processingLimit
        self.now = now
        self.random = random
    }

    /// A queue in a database of its own at `path` (nil: in memory).
    public init(
        path: String?, client: SpotterClient, retry: RetryPolicy = .outbox,
        processingLimit: Duration = .seconds(60), now: @escaping @Sendable () -> Date = { Date() },
        photos: (any PhotoPreparing)? = PhotoPreparation.platformDefault
    ) throws {
        self.init(
            database: try AppDatabase(path: path), client: client, retry: retry, processingLimit: processingLimit,
            now: now, photos: photos)
    }

    /// Makes the photos ready (`PhotoPreparing`), then stores the post and them (committed before this
    /// returns); `drain()` sends them.
    @discardableResult
    public func enqueue(_ post: CreatePostRequest, photos: [PhotoToUpload]) async throws -> UploadJob {
        var ready: [PhotoToUpload] = []
        for photo in photos { ready.append(try await preparer?.prepare(photo) ?? photo) }
        return try await database.insertUploadJob(post, photos: ready, at: now())
    }

    /// Jobs still to run, oldest first, each with its photos' steps and why its last try did not get through.
    public var pending: [UploadJob] {
        get async throws { try await database.uploadJobs(failed: false) }
    }

    /// Jobs refused for good, with the reason, for the person to read and discard.
    public var failed: [UploadJob] {
        get async throws { try await database.uploadJobs(failed: true) }
    }

    /// Removes a job and its photos' bytes.
    public func discard(_ id: Int64) async throws { try await database.deleteUploadJob(id) }

    /// Progress of every job this queue runs, from now on, until the stream's consumer stops.
    public func progress() -> AsyncStream<UploadProgress> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: UploadProgress.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        listeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.stopListening(id) } }
        return stream
    }

    private func stopListening(_ id: UUID) { listeners[id] = nil }

    /// Runs the due jobs, oldest first, each as far as it goes. A job that stops for want of a network ends
    /// the drain (the others would fail the same way); a server error or a photo still processing leaves the job
    /// for a later drain and goes on with the next.
    ///
    /// - Parameter ignoringBackoff: run jobs still waiting out their backoff too (the network just came back).
    @discardableResult
    public func drain(ignoringBackoff: Bool = false) async -> [UploadOutcome] {
        guard !draining else { return [] }
        draining = true
        defer { draining = false }
        guard let jobs = try? await pending else { return [] }
        var outcomes: [UploadOutcome] = []
        for job in jobs where isDue(job, ignoringBackoff: ignoringBackoff) {
            let outcome: UploadOutcome
            do {
                outcome = try await run(job)
            } catch {
                break  // signed out, cancelled, or the database failed: keep everything for the next drain
            }
            outcomes.append(outcome)
            if case .waiting(_, let retry) = outcome, retry.reason == .network { break }
        }
        return outcomes
    }

    /// Drains every `interval` until the task is cancelled; each drain runs only what is due.
    public func runPeriodically(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            _ = await drain()
            try? await Task.sleep(for: interval)
        }
    }

    private func isDue(_ job: UploadJob, ignoringBackoff: Bool) -> Bool {
        guard let retry = job.retry, retry.nextAttempt > now() else { return true }
        return ignoringBackoff && retry.reason != .refusedForNow
    }

    /// Runs one job until it is posted, refused, or stopped by the network or the server. Throws only what
    /// keeps the queue from going on at all (signed out, cancelled, the database).
    private func run(_ job: UploadJob) async throws -> UploadOutcome {
        var job = job
        do {
            var post: Post?
            var uploadedAgain = false
            while post == nil {
                for index in job.photos.indices {
                    try await advance(&job, photo: index)
                }
                report(job, .posting)
                var request = job.post
                request.mediaIDs = job.photos.compactMap { $0.upload?.id }
                do {
                    post = try await client.createPost(request, idempotencyKey: job.idempotencyKey)
                } catch let error as SpotterClientError where !error.isTransient && error != .signedOut {
                    // Photos the server no longer has (swept after a day unattached, while the phone was away)
                    // are uploaded again, once; any other refusal ends the job.
                    let forgotten = Self.refusedPhotos(error, count: job.photos.count)
                    guard !forgotten.isEmpty, !uploadedAgain else {
                        throw Refused(reason: (error.problem?.explanation ?? error.description))
                    }
                    uploadedAgain = true
                    job.idempotencyKey = SpotterClient.newKey()  // the refused post stays refused under the old one
                    try await database.renewUploadKey(job.id, job.idempotencyKey)
                    for index in forgotten {
                        try await store(&job, index, .presign, presignKey: SpotterClient.newKey())
                    }
                }
            }
            guard let post else { throw CancellationError() }
            try await database.posted(upload: job.id, post)
            report(job, .posted(post), fraction: 1)
            let milliseconds = Int((now().timeIntervalSince(job.createdAt) * 1000).rounded())
            await analytics?.track(
                "upload_success",
                properties: ["duration_ms": String(max(0, milliseconds)), "photos": String(job.photos.count)])
            return .posted(job, post)
        } catch let refused as Refused {
            try await database.markUploadFailed(job.id, refused.reason)
            job.failure = refused.reason
            report(job, .failed(refused.reason))
            return .failed(job, refused.reason)
        } catch let error as SpotterClientError where error.isTransient {
            return try await wait(job, after: error)
        } catch let stillProcessing as StillProcessing {
            return try await wait(job, after: .transport(stillProcessing.detail), reason: .server)
        }
    }

    /// Schedules the job's next try after a failure that may pass.
    private func wait(
        _ job: UploadJob, after failure: SpotterClientError, reason: PendingRetry.Reason? = nil
    ) async throws -> UploadOutcome {
        let attempts = job.attempts + 1
        let wait = retry.wait(after: failure, attempt: attempts, random: random()) ?? retry.maxRetryAfter
        let next = PendingRetry(
            reason: reason ?? PendingRetry.Reason(failure) ?? .server,
            detail: failure.problem?.explanation ?? failure.description, nextAttempt: now() + wait.timeInterval)
        try await database.scheduleUploadRetry(job.id, attempts: attempts, next)
        var waiting = job
        waiting.attempts = attempts
        waiting.retry = next
        report(waiting, .waiting(next))
        return .waiting(waiting, next)
    }

    func report(_ job: UploadJob, _ step: UploadProgress.Step, fraction: Double? = nil) {
        let progress = UploadProgress(jobID: job.id, step: step, fraction: fraction ?? job.fraction)
        for listener in listeners.values { listener.yield(progress) }
    }
}
