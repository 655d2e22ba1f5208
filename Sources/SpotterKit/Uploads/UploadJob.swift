import Foundation
import SpotterModels

/// A photo to post: its bytes, their type, and its alt text.
public struct PhotoToUpload: Sendable, Equatable {
    public var data: Data
    /// `image/jpeg`, `image/png`, `image/webp` or `image/heic`: the server checks the bytes against it.
    public var contentType: String
    /// Alt text, read aloud to people who cannot see the photo.
    public var description: String?
    public var focus: FocalPoint?

    public init(data: Data, contentType: String, description: String? = nil, focus: FocalPoint? = nil) {
        self.data = data
        self.contentType = contentType
        self.description = description
        self.focus = focus
    }
}

/// Where a photo of a job is on its way: each step's result is stored before the next step starts, so a job
/// resumes at the step it stopped at.
public enum UploadStage: String, Sendable, Equatable, CaseIterable {
    /// Ask the server where to send the bytes (`POST /api/v1/media`).
    case presign
    /// Send the bytes to the presigned link.
    case send
    /// Tell the server the bytes are there (`POST /api/v1/media/{id}/complete`).
    case complete
    /// Wait until the server has processed it.
    case process
    /// Processed: ready to be attached.
    case ready

    /// Steps done before this one, out of `UploadStage.stepsPerPhoto`.
    var stepsDone: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    static let stepsPerPhoto = allCases.count - 1
}

/// A photo of a job as stored (its bytes stay in the database until the job ends).
public struct UploadPhoto: Sendable, Equatable {
    /// Its place in the post, from 0.
    public var position: Int
    public var contentType: String
    public var byteSize: Int
    public var description: String?
    public var focus: FocalPoint?
    public var stage: UploadStage
    /// Sent with the presign request, so a presign whose answer was lost gives the same upload again.
    public var presignKey: String
    /// Where to send the bytes, once presigned.
    public var upload: MediaUpload?
}

/// A post with photos waiting to reach the server: its photos' progress, and the one idempotency key the post
/// is created under, so it is created once however often the job is resumed.
public struct UploadJob: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var post: CreatePostRequest
    public var idempotencyKey: String
    public var photos: [UploadPhoto]
    /// Tries in a row that did not get through; the wait before the next one grows with them.
    public var attempts: Int
    /// Set once a photo or the post was refused for good (a photo the server could not read, say), with the
    /// reason for the person; the job is then not tried again.
    public var failure: String?
    /// Why the last try did not get through and when the next is due, while the job waits.
    public var retry: PendingRetry?
    public var createdAt: Date

    /// How far the job is, from 0 to 1: four steps per photo, and the post.
    public var fraction: Double {
        let total = photos.count * UploadStage.stepsPerPhoto + 1
        return Double(photos.map(\.stage.stepsDone).reduce(0, +)) / Double(total)
    }
}

/// What an `UploadQueue` is doing, for a progress bar: the job, the step under way, and the share done.
public struct UploadProgress: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        /// A photo (its position, from 0) is at a stage.
        case photo(Int, UploadStage)
        /// Creating the post.
        case posting
        case posted(Post)
        /// Waiting for the network or the server; the job resumes at the next drain.
        case waiting(PendingRetry)
        /// Refused for good, with the reason for the person.
        case failed(String)
    }

    public var jobID: Int64
    public var step: Step
    /// From 0 to 1.
    public var fraction: Double
}

/// What a drain did with one job.
public enum UploadOutcome: Sendable, Equatable {
    case posted(UploadJob, Post)
    /// Refused for good (a photo the server could not process, a post it refused), with the reason.
    case failed(UploadJob, String)
    /// Stopped for want of a network or a working server; resumed by a later drain.
    case waiting(UploadJob, PendingRetry)
}
