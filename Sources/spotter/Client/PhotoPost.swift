import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// `spotter post … --photo`: the photos go through the upload queue (presign, send, complete, wait until
/// processed, post), kept beside the outbox, so a post whose network went away goes at the next `spotter
/// outbox`. A photo the server refuses is named with the server's reason, and the command fails.
enum PhotoPost {
    /// The files' bytes, their types from their names, and their alt text by position.
    static func read(_ paths: [String], alt: [String]) throws -> [PhotoToUpload] {
        try paths.enumerated().map { index, path in
            guard let type = contentType(of: path) else {
                throw ValidationError("\(path): a photo must be a .jpg, .jpeg, .png, .webp or .heic file.")
            }
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ValidationError("\(path): cannot be read (\((error as NSError).localizedDescription)).")
            }
            let description = alt.indices.contains(index) && !alt[index].isEmpty ? alt[index] : nil
            return PhotoToUpload(data: data, contentType: type, description: description)
        }
    }

    static func contentType(of path: String) -> String? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "heic", "heif": "image/heic"
        default: nil
        }
    }

    static func run(_ post: CreatePostRequest, photos: [PhotoToUpload], options: ClientOptions) async throws {
        let queue = try options.uploads()
        let job = try await queue.enqueue(post, photos: photos)
        let updates = await queue.progress()
        let printer = Task {
            var last: UploadProgress.Step?
            for await progress in updates where progress.jobID == job.id && progress.step != last {
                last = progress.step
                if let line = line(for: progress.step) { print(line) }
            }
        }
        let outcomes = await queue.drain()
        printer.cancel()
        try await report(queue, outcomes: outcomes, sending: job.id)
    }

    /// Says what the drain did and what waits; fails the command when `sending` was refused or still waits.
    /// Returns how many posts still wait.
    @discardableResult
    static func report(
        _ queue: UploadQueue, outcomes: [UploadOutcome]? = nil, listing: Bool = false, sending: Int64? = nil
    ) async throws -> Int {
        var drained = outcomes ?? []
        if outcomes == nil { drained = await queue.drain(ignoringBackoff: true) }
        var failedNow = false
        for outcome in drained {
            switch outcome {
            case .posted(let job, let post):
                print("sent: \(describe(job)) as \(post.id)")
            case .failed(let job, let reason):
                print("refused: \(describe(job)): \(reason)")
                failedNow = failedNow || job.id == sending
                if job.id == sending { try? await queue.discard(job.id) }
            case .waiting(let job, let retry):
                print("waiting: \(describe(job)) — \(retry.detail); `spotter outbox` sends it when you are online")
            }
        }
        if failedNow { throw ExitCode.failure }
        guard listing else { return try await queue.pending.count }
        for job in try await queue.failed {
            print("  failed upload #\(job.id): \(describe(job)) — \(job.failure ?? "refused") (dropped)")
            try await queue.discard(job.id)
        }
        return try await queue.pending.count
    }

    static func describe(_ job: UploadJob) -> String {
        let text = job.post.text ?? job.post.workout?.title ?? ""
        return "post \"\(text)\" with \(job.photos.count) photo\(job.photos.count == 1 ? "" : "s")"
    }

    private static func line(for step: UploadProgress.Step) -> String? {
        switch step {
        case .photo(let index, .send): "photo \(index + 1): uploading…"
        case .photo(let index, .process): "photo \(index + 1): processing…"
        case .photo(let index, .ready): "photo \(index + 1): ready"
        case .posting: "posting…"
        default: nil
        }
    }
}

/// `spotter avatar set face.jpg`: uploads a photo and makes it the avatar shown wherever you are.
struct Avatar: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set your avatar.", subcommands: [SetAvatar.self], defaultSubcommand: SetAvatar.self)

    struct SetAvatar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Upload a photo as your avatar.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The photo (JPEG, PNG, WebP or HEIC).") var file: String

        func run() async throws {
            let client = try options.client()
            let id = try await Avatar.upload(file, client: client)
            do {
                let account = try await client.updateProfile(UpdateAccountRequest(avatarMediaID: id))
                print("Avatar set for @\(account.username).")
            } catch let error as SpotterClientError {
                print("refused: \(file): \(error.problem?.explanation ?? error.description)")
                throw ExitCode.failure
            }
        }
    }

    /// Uploads `file` as an avatar (yours, a group's) and waits until it is processed; a refusal is said in a
    /// line and exits with failure.
    static func upload(_ file: String, client: SpotterClient) async throws -> MediaID {
        let photo = try PhotoPost.read([file], alt: [])[0]
        do {
            let uploaded = try await client.uploadDirect(photo.data, contentType: photo.contentType, purpose: .avatar)
            let media = try await client.waitUntilProcessed(uploaded.id)
            guard media.status == .ready else {
                print("refused: \(file): \(media.reason ?? "the server could not process it (\(media.status))")")
                throw ExitCode.failure
            }
            return media.id
        } catch let error as SpotterClientError {
            print("refused: \(file): \(error.problem?.explanation ?? error.description)")
            throw ExitCode.failure
        }
    }
}
