import Foundation
import SpotterModels

/// The steps of one photo, each result stored before the next (see `UploadQueue`).
extension UploadQueue {
    /// Takes one photo through its remaining steps, storing each step's result.
    func advance(_ job: inout UploadJob, photo index: Int) async throws {
        var presignedNow = false
        var sentAgain = false
        let name = "Photo \(index + 1)"
        while true {
            let photo = job.photos[index]
            report(job, .photo(index, photo.stage))
            switch photo.stage {
            case .ready:
                return
            case .presign:
                let upload = try await refusing(name) {
                    try await client.createUpload(
                        CreateMediaRequest(
                            contentType: photo.contentType, byteSize: photo.byteSize, purpose: .post,
                            description: photo.description, focus: photo.focus),
                        idempotencyKey: photo.presignKey)
                }
                try await store(&job, index, .send, upload: upload)
                presignedNow = true
            case .send:
                guard let upload = photo.upload, upload.expiresAt > now().addingTimeInterval(30) else {
                    try await store(&job, index, .presign, presignKey: SpotterClient.newKey())
                    continue
                }
                let bytes = try await database.uploadBytes(job: job.id, position: photo.position)
                do {
                    try await client.sendUpload(bytes, to: upload)
                } catch let error as SpotterClientError where error.status == 403 && !presignedNow {
                    // The link expired by the server's clock, or its signing key changed: ask for another.
                    try await store(&job, index, .presign, presignKey: SpotterClient.newKey())
                    continue
                } catch let error as SpotterClientError where !error.isTransient {
                    throw Refused(reason: "\(name) could not be uploaded: \(error.problem?.explanation ?? "\(error)")")
                }
                try await store(&job, index, .complete)
            case .complete:
                guard let id = photo.upload?.id else {
                    try await store(&job, index, .presign, presignKey: SpotterClient.newKey())
                    continue
                }
                let media: Media
                do {
                    media = try await client.completeUpload(id)
                } catch let error as SpotterClientError
                    where error.status == 409 && error.problem?.errors?.first?.field == "upload"
                {
                    // The bytes never arrived: send them again, once; a store that still shows nothing after that
                    // (an S3 replica behind) is asked again at the next drain.
                    guard !sentAgain else { throw StillProcessing(detail: "\(name) is not in the store yet") }
                    sentAgain = true
                    try await store(&job, index, .send)
                    continue
                } catch let error as SpotterClientError where error.status == 404 && !presignedNow {
                    try await store(&job, index, .presign, presignKey: SpotterClient.newKey())  // swept: again
                    continue
                } catch let error as SpotterClientError where !error.isTransient {
                    throw Refused(reason: "\(name) was refused: \(error.problem?.explanation ?? "\(error)")")
                }
                try check(media, name)
                try await store(&job, index, .process)
            case .process:
                guard let id = photo.upload?.id else {
                    try await store(&job, index, .presign, presignKey: SpotterClient.newKey())
                    continue
                }
                let media: Media
                do {
                    media = try await client.waitUntilProcessed(id, limit: processingLimit)
                } catch let error as SpotterClientError where error.status == 404 && !presignedNow {
                    try await store(&job, index, .presign, presignKey: SpotterClient.newKey())  // swept: again
                    continue
                } catch let error as SpotterClientError where !error.isTransient && error != .signedOut {
                    throw Refused(reason: "\(name) was refused: \(error.problem?.explanation ?? "\(error)")")
                }
                try check(media, name)
                guard media.status == .ready else {
                    throw StillProcessing(detail: "\(name) is still being processed")
                }
                try await store(&job, index, .ready)
            }
        }
    }

    /// The positions of the photos a post's refusal names (`media_ids[2]`, …).
    static func refusedPhotos(_ error: SpotterClientError, count: Int) -> [Int] {
        guard error.status == 422 else { return [] }
        return (error.problem?.errors ?? []).compactMap { fault -> Int? in
            guard fault.field.hasPrefix("media_ids["), fault.field.hasSuffix("]") else { return nil }
            return Int(fault.field.dropFirst("media_ids[".count).dropLast()).flatMap {
                (0..<count).contains($0) ? $0 : nil
            }
        }
    }

    /// A photo the server failed ends the job, with its reason.
    func check(_ media: Media, _ name: String) throws {
        guard media.status == .failed else { return }
        throw Refused(reason: "\(name) was refused: \(media.reason ?? "the server could not process it").")
    }

    /// Runs a step, turning the server's refusal for good into the job's failure.
    func refusing<Value>(_ name: String, _ step: () async throws -> Value) async throws -> Value {
        do {
            return try await step()
        } catch let error as SpotterClientError where !error.isTransient && error != .signedOut {
            throw Refused(reason: "\(name) was refused: \(error.problem?.explanation ?? "\(error)")")
        }
    }

    func store(
        _ job: inout UploadJob, _ index: Int, _ stage: UploadStage, upload: MediaUpload? = nil,
        presignKey: String? = nil
    ) async throws {
        try await database.setUploadStage(
            job: job.id, position: job.photos[index].position, stage, upload: upload, presignKey: presignKey)
        job.photos[index].stage = stage
        if stage == .presign { job.photos[index].upload = nil }
        if let upload { job.photos[index].upload = upload }
        if let presignKey { job.photos[index].presignKey = presignKey }
    }

    /// The server refused a photo or the post for good.
    struct Refused: Error {
        var reason: String
    }

    /// A photo was not processed within `processingLimit`.
    struct StillProcessing: Error {
        var detail: String
    }
}
