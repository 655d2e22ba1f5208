import Foundation
import SpotterModels

/// Photos: the upload flow of the Nova seed (presign, send the bytes straight to the blob store, complete, wait
/// until processed), the small direct path, and alt text. `UploadQueue` runs the flow durably for an app; these
/// are its steps, for callers that handle failure themselves (the `spotter` command line).
///
/// ```swift
/// let upload = try await client.createUpload(
///     CreateMediaRequest(contentType: "image/jpeg", byteSize: jpeg.count, purpose: .post, description: "Finish line"))
/// try await client.sendUpload(jpeg, to: upload)
/// _ = try await client.completeUpload(upload.id)
/// let media = try await client.waitUntilProcessed(upload.id)   // .ready, or .failed with its reason
/// let post = try await client.createPost(CreatePostRequest(kind: .note, text: "Done!", mediaIDs: [media.id]))
/// ```
extension SpotterClient {
    /// Step one: where to send `request.byteSize` bytes. Asked again with the same idempotency key (an answer
    /// lost on the way), the server answers the same upload.
    public func createUpload(_ request: CreateMediaRequest, idempotencyKey: String? = nil) async throws -> MediaUpload {
        try await call(.change("POST", "/api/v1/media", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    /// Step two: the bytes, with exactly the upload's method and signed headers, to its link (this server's
    /// blob store or an S3 bucket), without the session's token: the link is the permission. Sending again
    /// replaces what was sent. A link that expired is refused (403): ask for a new one.
    public func sendUpload(_ data: Data, to upload: MediaUpload) async throws {
        guard let url = URL(string: upload.uploadURL) else {
            throw SpotterClientError.unreadableResponse(status: 0, detail: "bad upload link \(upload.uploadURL)")
        }
        _ = try await send(
            Call(
                method: upload.uploadMethod, path: url.path, body: data, authenticated: false, absoluteURL: url,
                headers: upload.uploadHeaders))
    }

    /// Step three: the bytes are in the store; the server checks them and starts processing (`processing`).
    /// Asking again answers the upload's state.
    @discardableResult
    public func completeUpload(_ id: MediaID, idempotencyKey: String? = nil) async throws -> Media {
        try await call(.change("POST", "/api/v1/media/\(id)/complete", key: idempotencyKey))
    }

    /// An upload of mine, with its state: `processing`, then `ready` or `failed` with a reason.
    public func media(_ id: MediaID) async throws -> Media {
        try await call(Call(method: "GET", path: "/api/v1/media/\(id)"))
    }

    /// Alt text and focal point, until the photo's post is made.
    @discardableResult
    public func updateMedia(
        _ id: MediaID, _ changes: UpdateMediaRequest, idempotencyKey: String? = nil
    ) async throws -> Media {
        try await call(
            .change("PATCH", "/api/v1/media/\(id)", body: try Self.encoder.encode(changes), key: idempotencyKey))
    }

    /// Throws away an upload no post took.
    public func deleteMedia(_ id: MediaID, idempotencyKey: String? = nil) async throws {
        _ = try await send(.change("DELETE", "/api/v1/media/\(id)", key: idempotencyKey))
    }

    /// The small-upload path in one request (`multipart/form-data`): for photos small enough to send with the
    /// request; answers the upload `processing`.
    public func uploadDirect(
        _ data: Data, contentType: String, purpose: MediaPurpose = .post, description: String? = nil,
        idempotencyKey: String? = nil
    ) async throws -> Media {
        let form = MultipartBody(
            fields: [("purpose", purpose.rawValue)] + (description.map { [("description", $0)] } ?? []),
            file: (name: "file", filename: "photo", contentType: contentType, data: data))
        var call = Call.change("POST", "/api/v1/media/direct", body: form.data, key: idempotencyKey)
        call.headers["Content-Type"] = form.contentType
        return try await self.call(call)
    }

    /// Polls an upload until it is no longer being processed, waiting longer between asks (0.1 s doubling to
    /// 2 s), for at most `limit`; answers it `ready` or `failed`, or as it last was when the limit came.
    public func waitUntilProcessed(_ id: MediaID, limit: Duration = .seconds(60)) async throws -> Media {
        let deadline = ContinuousClock.now + limit
        var wait = Duration.milliseconds(100)
        while true {
            let media = try await media(id)
            guard media.status == .processing || media.status == .pending, ContinuousClock.now < deadline else {
                return media
            }
            try await sleep(wait)
            wait = min(wait * 2, .seconds(2))
        }
    }
}

/// A `multipart/form-data` body (RFC 7578) of text fields and one file. Written by hand: Foundation has no
/// encoder for it, and a form of text and one file is a few lines.
struct MultipartBody {
    let boundary = "spotter-\(UUID().uuidString)"
    let fields: [(String, String)]
    let file: (name: String, filename: String, contentType: String, data: Data)

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    var data: Data {
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
            body.append(Data("\(value)\r\n".utf8))
        }
        body.append(
            Data(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\""
                    + "\r\nContent-Type: \(file.contentType)\r\n\r\n").utf8))
        body.append(file.data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return body
    }
}

extension SpotterClient {
    /// The URL an `avatar_url` (or any URL the server gives) names: an uploaded avatar's is a path on the server
    /// (`/media/<id>/small.jpg`), which the server keeps as a path so that it stays right when the site moves;
    /// resolved here against the server this client talks to. A whole URL stays as it is.
    public nonisolated func url(_ reference: String) -> URL? {
        URL(string: reference, relativeTo: baseURL)?.absoluteURL
    }
}
