import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// Shorthands for the photo routes, so upload tests read as what a client does.
extension APIClient {
    /// Step one: where to upload.
    func presign(
        _ token: String, contentType: String = "image/jpeg", byteSize: Int, purpose: MediaPurpose = .post,
        description: String? = nil
    ) async throws -> MediaUpload {
        let response = try await call(
            .post, "/api/v1/media", token: token,
            body: CreateMediaRequest(
                contentType: contentType, byteSize: byteSize, purpose: purpose, description: description))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(MediaUpload.self)
    }

    /// Step two: the bytes, straight to the store with exactly the signed method and headers. The local store
    /// is this app (reached through the test client); an S3 store is reached over the network.
    func send(_ data: Data, to upload: MediaUpload, headers extra: [String: String] = [:]) async throws -> Int {
        var headers = upload.uploadHeaders
        for (name, value) in extra { headers[name] = value }
        return try await send(data, to: upload.uploadURL, headers: headers)
    }

    /// The bytes to a presigned upload URL (a photo's, an encrypted blob's) with exactly its headers.
    func send(_ data: Data, to uploadURL: String, headers: [String: String]) async throws -> Int {
        let url = try #require(URL(string: uploadURL))
        if url.path.hasPrefix("/blobs/") {
            var fields = HTTPFields()
            for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
            let target = url.path + (url.query.map { "?" + $0 } ?? "")
            let response = try await client.execute(
                uri: target, method: .put, headers: fields, body: ByteBuffer(data: data))
            return Int(response.status.code)
        }
        var request = HTTPClientRequest(url: uploadURL)
        request.method = .PUT
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: data))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    /// Step three: done; answers the upload's state.
    func complete(_ token: String, _ id: MediaID) async throws -> TestResponse {
        try await call(.post, "/api/v1/media/\(id)/complete", token: token)
    }

    /// The upload, once it is no longer processing (a deadline, not a guess: processing runs in the app's own
    /// background service).
    func settled(_ token: String, _ id: MediaID) async throws -> Media {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let media = try await call(.get, "/api/v1/media/\(id)", token: token).decode(Media.self)
            if media.status != .processing && media.status != .pending { return media }
            guard ContinuousClock.now < deadline else {
                Issue.record("media \(id) still \(media.status) after 60 s")
                return media
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The whole flow: presign, send, complete, wait until processed.
    func uploadPhoto(
        _ token: String, _ data: Data, contentType: String = "image/jpeg", purpose: MediaPurpose = .post,
        description: String? = nil
    ) async throws -> Media {
        let upload = try await presign(
            token, contentType: contentType, byteSize: data.count, purpose: purpose, description: description)
        let status = try await send(data, to: upload)
        try #require((200..<300).contains(status), "the store refused the upload: \(status)")
        let completed = try await complete(token, upload.id)
        try #require(completed.status == .accepted, "complete: \(completed.status) \(completed.text)")
        return try await settled(token, upload.id)
    }

    /// A note with photos.
    func post(_ token: String, _ text: String, media: [MediaID], visibility: Visibility? = nil) async throws -> Post {
        let response = try await call(
            .post, "/api/v1/posts", token: token,
            body: CreatePostRequest(kind: .note, text: text, visibility: visibility, mediaIDs: media))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(Post.self)
    }

    /// GETs a photo URL the server gave out, through the test client (it is this app's own).
    func fetch(_ url: String, token: String? = nil) async throws -> TestResponse {
        let parsed = try #require(URL(string: url))
        return try await call(.get, parsed.path + (parsed.query.map { "?" + $0 } ?? ""), token: token)
    }
}

extension BlobBackend {
    /// Points the app at this blob store: a fresh data directory for the local one (its files, its key), the
    /// test bucket for S3.
    func configure(_ configuration: inout AppConfiguration) {
        configuration.dataDirectory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("spotter-media-\(UUID().uuidString)").path
        switch self {
        case .local: configuration.mediaStorage = MediaStorageConfiguration(backend: .local)
        case .s3: configuration.mediaStorage = MediaStorageConfiguration(backend: .s3(Self.s3Configuration!))
        }
    }

    /// Runs `body` with a store over the same blobs as the app under test, to look at what it kept.
    func inspect(_ api: APIClient, _ body: (any BlobStore) async throws -> Void) async throws {
        switch self {
        case .local:
            try await body(
                try LocalBlobStore(
                    root: URL(fileURLWithPath: api.dataDirectory).appendingPathComponent("media"),
                    baseURL: URL(string: "http://127.0.0.1")!, signingKey: SymmetricKey(size: .bits256)))
        case .s3:
            let store = S3BlobStore(configuration: Self.s3Configuration!)
            do {
                try await body(store)
                try await store.shutdown()
            } catch {
                try? await store.shutdown()
                throw error
            }
        }
    }
}
