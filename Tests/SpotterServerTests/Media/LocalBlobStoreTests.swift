import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import SpotterCore
import SpotterModels
import Testing

@testable import SpotterServer

/// What only the local adapter does: its files, its `/blobs/` routes' answers and limits. The contract both
/// adapters keep is in `BlobStoreContractTests`.
@Suite("Local blob store")
struct LocalBlobStoreTests {
    @Test("a key that could leave the folder or name a temporary file is not a key")
    func blobKeys() {
        for bad in [
            "", "/absolute", "../up", "a/../b", "a/./b", "a/..", ".", "..", "a//b", "trailing/", "back\\slash",
            "per%2e%2ecent", "space here", "tilde~", "ünïcode", "a\u{0}b", String(repeating: "x", count: 513),
        ] {
            #expect(BlobKey(bad) == nil, "\(bad)")
        }
        for good in [
            "a", "media/0193abc/original", ".hidden", "..dots", "a.b-c_d/E9", String(repeating: "x", count: 512),
        ] {
            #expect(BlobKey(good)?.rawValue == good)
        }
    }

    @Test("a blob is one file, its type on the first line, and no temporary file is left behind")
    func fileLayout() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-blobs-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try LocalBlobStore(
            root: root, baseURL: URL(string: "http://127.0.0.1:8080")!, signingKey: SymmetricKey(size: .bits256))
        try await store.put(Data("bytes".utf8), at: BlobKey("media/1/original")!, contentType: "image/png")
        try await store.put(Data("again".utf8), at: BlobKey("media/1/original")!, contentType: "image/png")
        let file = root.appendingPathComponent("media/1/original")
        #expect(try Data(contentsOf: file) == Data("image/png\nagain".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["original"])
        // Deleting the last blob of a folder removes the empty folders, not the root
        try await store.delete(BlobKey("media/1/original")!)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("media").path))
        #expect(FileManager.default.fileExists(atPath: root.path))
    }

    @Test("a key cannot be both a blob and a folder of blobs: 409, the blob kept")
    func nestedKeys() async throws {
        try await LocalBlobServer.run { store, _ in
            try await store.put(Data("blob".utf8), at: BlobKey("media/1")!, contentType: "image/png")
            try await store.put(Data("inner".utf8), at: BlobKey("media/2/small")!, contentType: "image/png")
            await #expect(
                throws: BlobStoreError.refused(status: 409, detail: "another blob's name is a prefix of this key")
            ) {
                try await store.put(Data("x".utf8), at: BlobKey("media/1/small")!, contentType: "image/png")
            }
            await #expect(
                throws: BlobStoreError.refused(status: 409, detail: "this key is a prefix of other blobs' keys")
            ) {
                try await store.put(Data("x".utf8), at: BlobKey("media/2")!, contentType: "image/png")
            }
            let upload = try store.presignedUpload(
                to: BlobKey("media/1/large")!, contentType: "image/png", lifetime: .seconds(60), now: Date())
            let sent = try await send(upload, body: Data("x".utf8))
            #expect(sent.status == 409)
            #expect(sent.headers["content-type"] == "application/problem+json")
            #expect(try await store.get(BlobKey("media/1")!)?.data == Data("blob".utf8))
            #expect(try await store.get(BlobKey("media/2/small")!)?.data == Data("inner".utf8))
        }
    }

    @Test("presigned links point at this server's /blobs/ with an expiry and a signature")
    func linkShape() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-blobs-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try LocalBlobStore(
            root: root, baseURL: URL(string: "https://spotter.example/")!, signingKey: SymmetricKey(size: .bits256))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let upload = try store.presignedUpload(
            to: BlobKey("media/9/original")!, contentType: "image/jpeg", lifetime: .seconds(900), now: now)
        #expect(
            upload.url.absoluteString.hasPrefix(
                "https://spotter.example/blobs/media/9/original?expires=1800000900&signature="))
        #expect(upload.expiresAt == now.addingTimeInterval(900))
        #expect(upload.headers == ["Content-Type": "image/jpeg"])
        // A download's signature is not an upload's: the method is signed
        let download = try store.presignedDownload(of: BlobKey("media/9/original")!, lifetime: .seconds(900), now: now)
        #expect(download.url.query != upload.url.query)
    }

    @Test("refusals say why, as problem+json: a bad signature, an expired link, a missing blob")
    func refusalDetails() async throws {
        try await LocalBlobServer.run { store, _ in
            let key = BlobKey("a/b")!
            let tampered = try #require(
                BlobStoreContractTests.tamperingSignature(
                    of: try store.presignedDownload(of: key, lifetime: .seconds(60), now: Date()).url))
            let bad = try await send(
                try store.presignedDownload(of: key, lifetime: .seconds(60), now: Date()), url: tampered)
            #expect(bad.status == 403)
            #expect(bad.headers["content-type"] == "application/problem+json")
            #expect(try JSONDecoder().decode(Problem.self, from: bad.body).detail == "The signature does not match.")

            let expired = try await send(
                try store.presignedDownload(of: key, lifetime: .seconds(60), now: Date().addingTimeInterval(-61)))
            #expect(expired.status == 403)
            #expect(try JSONDecoder().decode(Problem.self, from: expired.body).detail == "The link has expired.")

            let missing = try await send(try store.presignedDownload(of: key, lifetime: .seconds(60), now: Date()))
            #expect(missing.status == 404)
            #expect(missing.headers["content-type"] == "application/problem+json")

            let unsigned = try await send(
                try store.presignedDownload(of: key, lifetime: .seconds(60), now: Date()),
                url: URL(string: "http://\(store.baseURL.host!):\(store.baseURL.port!)/blobs/a/b")!)
            #expect(unsigned.status == 403)
        }
    }

    @Test("a download is private, cached no longer than its link lives, and never sniffed")
    func downloadHeaders() async throws {
        try await LocalBlobServer.run { store, _ in
            try await store.put(Data("<html>".utf8), at: BlobKey("x")!, contentType: "image/png")
            let fetched = try await send(
                try store.presignedDownload(of: BlobKey("x")!, lifetime: .seconds(300), now: Date()))
            #expect(fetched.status == 200)
            #expect(fetched.headers["content-type"] == "image/png")
            #expect(fetched.headers["x-content-type-options"] == "nosniff")
            let maxAge = try #require(
                fetched.headers["cache-control"].flatMap { $0.split(separator: "=").last }.flatMap { Int($0) })
            #expect(fetched.headers["cache-control"]?.hasPrefix("private, max-age=") == true)
            #expect((298...300).contains(maxAge))
        }
    }

    @Test("an upload needs its Content-Type, and one over the limit is refused with 413, stored or streamed")
    func uploadLimits() async throws {
        try await LocalBlobServer.run(maxUploadSize: 4096) { store, root in
            let key = BlobKey("big")!
            let upload = try store.presignedUpload(
                to: key, contentType: "image/jpeg", lifetime: .seconds(60), now: Date())
            // No Content-Type at all
            #expect(try await send(upload, headers: [:], body: Data("x".utf8)).status == 400)
            // Declared too large: refused before the body is read
            #expect(try await send(upload, body: Data(count: 4097)).status == 413)
            // Streamed without a length, too large once read
            var request = HTTPClientRequest(url: upload.url.absoluteString)
            request.method = .PUT
            request.headers.add(name: "Content-Type", value: "image/jpeg")
            let chunks = (0..<8).map { _ in ByteBuffer(repeating: 1, count: 1024) }
            request.body = .stream(chunks.async, length: .unknown)
            let streamed = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(streamed.status.code == 413)
            #expect(try await store.info(key) == nil)
            // At the limit exactly: stored
            #expect(try await send(upload, body: Data(count: 4096)).status == 200)
            #expect(try await store.info(key)?.size == 4096)
            // Nothing half-written is left in the folder
            let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
            #expect(names == ["big"])
        }
    }

    @Test("uploads to /blobs/ may pass the API's 1 MiB body limit; the API keeps it")
    func bodyLimitByPath() async throws {
        try await LocalBlobServer.run { store, _ in
            let upload = try store.presignedUpload(
                to: BlobKey("two-mib")!, contentType: "image/jpeg", lifetime: .seconds(60), now: Date())
            #expect(try await send(upload, body: Data(count: 2 << 20)).status == 200)
            let elsewhere = URL(string: "http://\(store.baseURL.host!):\(store.baseURL.port!)/api/v1/anything")!
            #expect(try await send(upload, url: elsewhere, body: Data(count: 2 << 20)).status == 413)
        }
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence, for a streamed request body.
    fileprivate var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
